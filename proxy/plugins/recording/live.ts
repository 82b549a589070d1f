// Live view: the recordings running in this proxy, by session id, and the events a viewer gets
// (GET /internal/sessions/:id/live, proxy/plugins/recording/live-stream.ts). A viewer only reads
// what the capture already receives, so watching never sends anything to the client's browser.

export interface LiveTab {
  targetId: string;
  url: string;
  title: string;
}

export type LiveEvent =
  | { type: 'tabs'; tabs: LiveTab[] }
  /** `data` is the frame's JPEG in base64, exactly as the browser sent it; `at` when the browser painted it (epoch ms). */
  | { type: 'frame'; targetId: string; t: number; at: number; data: string }
  | { type: 'end'; reason: string };

export interface LiveSource {
  /** Calls `listener` with the tabs and each tab's latest frame at once, then with every change; returns the unsubscribe. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
}

const running = new Map<string, LiveSource>();

export const liveRecordings = {
  add(sessionId: string, source: LiveSource): void {
    running.set(sessionId, source);
  },
  remove(sessionId: string, source: LiveSource): void {
    if (running.get(sessionId) === source) running.delete(sessionId);
  },
  get(sessionId: string): LiveSource | undefined {
    return running.get(sessionId);
  },
};
