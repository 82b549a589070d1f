'use client';
// Live view of a running recorded session (docs/recordings.md, "Watching"): an EventSource on
// /api/sessions/:id/live, which passes the proxy's events through. `tabs` lists the session's pages,
// `frame` carries a page's newest picture, `end` says why there will be no more. The stream only
// reads what the recording already captures, so watching never touches the client's session.
import { useEffect, useState } from 'react';

export interface LiveTab {
  targetId: string;
  url: string;
  title: string;
}

export interface LiveFrame {
  /** A data: URL of the JPEG. */
  src: string;
  /** Milliseconds since the recording started, as the proxy stamped it. */
  t: number;
  /** When this browser received it (Date.now()). */
  arrivedAt: number;
}

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'failed';

export interface LiveView {
  status: LiveStatus;
  tabs: LiveTab[];
  /** The newest frame of each tab, by target id. */
  frames: Record<string, LiveFrame>;
  /** Why the view ended or failed, in a sentence. */
  message: string | null;
}

const initial: LiveView = { status: 'connecting', tabs: [], frames: {}, message: null };

export const liveViewUrl = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}/live`;

/** Reads the stream of `sessionId` while it is not null; `attempt` changing opens it again. */
export function useLiveView(sessionId: string | null, attempt = 0): LiveView {
  const [view, setView] = useState<LiveView>(initial);

  useEffect(() => {
    if (!sessionId) return;
    const url = liveViewUrl(sessionId);
    const source = new EventSource(url);
    let closed = false;
    const finish = (status: 'ended' | 'failed', message: string) => {
      closed = true;
      source.close();
      setView((v) => ({ ...v, status, message }));
    };
    // A new stream starts from nothing: the proxy sends the tabs first.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setView(initial);

    source.onopen = () => !closed && setView((v) => ({ ...v, status: 'live', message: null }));
    source.addEventListener('tabs', (event) => {
      const tabs = parse<{ tabs?: LiveTab[] }>(event)?.tabs;
      if (!Array.isArray(tabs)) return;
      setView((v) => {
        // Frames of closed tabs are dropped with them.
        const frames = Object.fromEntries(Object.entries(v.frames).filter(([id]) => tabs.some((t) => t.targetId === id)));
        return { ...v, status: 'live', tabs, frames };
      });
    });
    source.addEventListener('frame', (event) => {
      const frame = parse<{ targetId?: string; t?: number; data?: string }>(event);
      if (!frame?.targetId || !frame.data) return;
      const next: LiveFrame = { src: `data:image/jpeg;base64,${frame.data}`, t: frame.t ?? 0, arrivedAt: Date.now() };
      setView((v) => ({ ...v, status: 'live', frames: { ...v.frames, [frame.targetId!]: next } }));
    });
    source.addEventListener('end', (event) => {
      const reason = parse<{ reason?: string }>(event)?.reason;
      finish('ended', reason ? sentence(reason) : 'The session ended.');
    });
    source.onerror = () => {
      if (closed) return;
      if (source.readyState !== EventSource.CLOSED) {
        // A dropped connection: the browser asks again by itself.
        setView((v) => ({ ...v, status: 'reconnecting' }));
        return;
      }
      // Refused (not a stream): the route's answer says why, which EventSource does not show.
      closed = true;
      void whyRefused(url).then((message) => finish('failed', message));
    };
    return () => {
      closed = true;
      source.close();
    };
  }, [sessionId, attempt]);

  return sessionId ? view : initial;
}

function parse<T>(event: Event): T | null {
  try {
    return JSON.parse((event as MessageEvent<string>).data) as T;
  } catch {
    return null;
  }
}

const sentence = (text: string) => {
  const trimmed = text.trim();
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
};

/** Asks the live route once more, as a plain request, to read its error envelope. */
async function whyRefused(url: string): Promise<string> {
  const controller = new AbortController();
  try {
    const response = await fetch(url, { signal: controller.signal, cache: 'no-store', credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (response.ok) {
      // Live again after all: this was a hiccup, not a refusal.
      controller.abort();
      return 'The live stream was interrupted. Try again.';
    }
    const body = (await response.json().catch(() => null)) as { error?: { message?: unknown } } | null;
    const message = typeof body?.error?.message === 'string' ? body.error.message : `the live view is not available (HTTP ${response.status})`;
    return sentence(message);
  } catch {
    return 'Could not reach the server; check your connection and try again.';
  }
}
