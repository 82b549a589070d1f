'use client';
// Watch a recorded session while it runs: the newest picture of one of its tabs, as the recording
// captures it. Watching only reads what the capture already produces; the client's session sees
// nothing of it.
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { useLiveView, type LiveFrame, type LiveStatus, type LiveTab } from '@/lib/client/live-view';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { ExpandIcon, RefreshIcon, XIcon } from '../ui/icons';
import { Select } from '../ui/input';
import { Spinner } from '../ui/spinner';
import { useNow } from '../sessions/format';

/** A frame older than this no longer counts as live (a still page sends none). */
const STALE_MS = 5_000;

const tabName = (tab: LiveTab, n: number) => tab.title || tab.url || `Tab ${n}`;

export function LiveView({
  sessionId,
  recordingId,
  onClose,
  className,
}: {
  sessionId: string;
  recordingId?: string;
  onClose?: () => void;
  className?: string;
}) {
  const { view, tabId, frame, age, over, stage, section, setChosen, retry } = useWatchedTab(sessionId);
  return (
    <section
      ref={section}
      aria-label="Live view"
      data-testid="live-view"
      className={cn('overflow-hidden rounded-lg border border-zinc-200 bg-white', className)}
    >
      <LiveBar
        view={view}
        tabId={tabId}
        age={age}
        over={over}
        onChoose={setChosen}
        onFullScreen={frame ? () => void stage.current?.requestFullscreen?.() : null}
        onClose={onClose}
      />
      <LiveStage stage={stage} view={view} tabId={tabId} frame={frame} over={over} />
      <LiveEnd view={view} recordingId={recordingId} onRetry={retry} />
      {!over && <p className="px-3 py-2 text-[12px] text-zinc-400">What the recording captures, as it happens. Watching does not affect the session.</p>}
    </section>
  );
}

/** The stream (a new attempt after a failure), the tab shown and its newest frame, how old it is. */
function useWatchedTab(sessionId: string) {
  const [attempt, setAttempt] = useState(0);
  const view = useLiveView(sessionId, attempt);
  const [chosen, setChosen] = useState<string | null>(null);
  const stage = useRef<HTMLDivElement>(null);
  const section = useRef<HTMLElement>(null);
  const now = useNow(view.status === 'live', 250);

  // Until one is chosen: the newest tab that has drawn something (a script's page, not the blank start tab).
  const drawn = view.tabs.filter((t) => view.frames[t.targetId]);
  const fallback = (drawn.at(-1) ?? view.tabs.at(-1))?.targetId ?? null;
  const tabId = chosen && view.tabs.some((t) => t.targetId === chosen) ? chosen : fallback;
  const frame = tabId ? view.frames[tabId] : undefined;
  const age = frame ? Math.max(0, now - frame.arrivedAt) : null;
  const over = view.status === 'ended' || view.status === 'failed';
  useKeptInSight(section);
  const retry = () => setAttempt((n) => n + 1);
  return { view, tabId, frame, age, over, stage, section, setChosen, retry };
}

/** The shown tab's newest frame (dimmed once it is over), or why there is none yet. */
function LiveStage({
  stage,
  view,
  tabId,
  frame,
  over,
}: {
  stage: React.RefObject<HTMLDivElement | null>;
  view: ReturnType<typeof useLiveView>;
  tabId: string | null;
  frame: LiveFrame | undefined;
  over: boolean;
}) {
  return (
    <div ref={stage} className="relative flex aspect-[16/10] items-center justify-center bg-zinc-950">
      {frame ? (
        // A data: URL from the stream: next/image has nothing to optimise here.
        // eslint-disable-next-line @next/next/no-img-element
        <img
          src={frame.src}
          alt={`Live view of ${
            tabId
              ? tabName(
                  view.tabs.find((t) => t.targetId === tabId)!,
                  1,
                )
              : 'the session'
          }`}
          data-testid="live-frame"
          className={cn('h-full w-full object-contain', over && 'opacity-40')}
        />
      ) : (
        <p className="flex items-center gap-2 px-6 text-center text-sm text-zinc-400">
          {!over && <Spinner className="size-4" />}
          {over ? 'Nothing to show.' : view.status === 'live' ? 'Waiting for the page to draw…' : 'Connecting to the session…'}
        </p>
      )}
    </div>
  );
}

/** How watching ended: the session ended (its recording), or the stream failed (try again). */
function LiveEnd({ view, recordingId, onRetry }: { view: ReturnType<typeof useLiveView>; recordingId?: string; onRetry: () => void }) {
  return (
    <>
      {view.status === 'ended' && (
        <Alert
          tone="info"
          title="Live view ended"
          className="m-3"
          action={
            recordingId && (
              <Link href={`/recordings/${recordingId}`} className="text-[13px] font-medium underline">
                Open the recording
              </Link>
            )
          }
        >
          {view.message}
        </Alert>
      )}
      {view.status === 'failed' && (
        <Alert
          tone="warning"
          title="Can't watch this session live"
          className="m-3"
          action={
            <Button size="sm" onClick={onRetry}>
              <RefreshIcon />
              Try again
            </Button>
          }
        >
          {view.message}
        </Alert>
      )}
    </>
  );
}

interface LiveBarProps {
  view: ReturnType<typeof useLiveView>;
  tabId: string | null;
  /** Milliseconds since the shown tab's newest frame (null: none yet). */
  age: number | null;
  over: boolean;
  onChoose: (tabId: string) => void;
  /** null while there is no frame to show. */
  onFullScreen: (() => void) | null;
  onClose?: () => void;
}

/** Whether it is live and how fresh, the tab shown, full screen, and stop watching. */
function LiveBar({ view, tabId, age, over, onChoose, onFullScreen, onClose }: LiveBarProps) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-zinc-100 px-3 py-2">
      <LiveIndicator status={view.status} fresh={age !== null && age < STALE_MS} />
      {age !== null && !over && (
        <span
          className="text-[12px] text-zinc-500 tabular-nums"
          data-testid="live-delay"
          title="Time since the newest frame of this tab arrived. A page that does not change sends no new frames."
        >
          Last frame {formatAge(age)} ago
        </span>
      )}
      <div className="ml-auto flex min-w-0 items-center gap-1.5">
        {view.tabs.length > 1 && (
          <Select value={tabId ?? ''} onChange={(e) => onChoose(e.target.value)} aria-label="Live tab" className="h-8 max-w-56 min-w-0 py-0 text-[13px]">
            {view.tabs.map((t, i) => (
              <option key={t.targetId} value={t.targetId}>
                {i + 1}. {tabName(t, i + 1)}
              </option>
            ))}
          </Select>
        )}
        <Button size="sm" variant="ghost" aria-label="Full screen" title="Full screen" disabled={!onFullScreen} onClick={() => onFullScreen?.()}>
          <ExpandIcon />
        </Button>
        {onClose && (
          <Button size="sm" variant="ghost" aria-label="Stop watching" title="Stop watching" onClick={onClose}>
            <XIcon />
          </Button>
        )}
      </div>
    </div>
  );
}

/**
 * It opens where "Watch live" was, often at the bottom edge of a panel: all of it is brought into
 * sight, and kept there as it grows (the frame's age and the tab picker arrive with the first
 * frames and can add a line) until the user scrolls or types.
 */
function useKeptInSight(section: React.RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = section.current;
    if (!element) return;
    const bring = () => void element.scrollIntoView({ block: 'nearest' });
    bring();
    const observer = new ResizeObserver(bring);
    observer.observe(element);
    const stop = () => observer.disconnect();
    const events = ['wheel', 'touchmove', 'keydown'] as const;
    for (const name of events) window.addEventListener(name, stop, { once: true, capture: true });
    return () => {
      stop();
      for (const name of events) window.removeEventListener(name, stop, { capture: true });
    };
  }, [section]);
}

function LiveIndicator({ status, fresh }: { status: LiveStatus; fresh: boolean }) {
  if (status === 'live') {
    return (
      <span className="inline-flex items-center gap-1.5 text-[12px] font-semibold tracking-wide text-red-600 uppercase" data-testid="live-indicator">
        <span className="relative flex size-2" aria-hidden="true">
          {fresh && <span className="absolute inline-flex size-full animate-ping rounded-full bg-red-500 opacity-70" />}
          <span className={cn('relative inline-flex size-2 rounded-full', fresh ? 'bg-red-600' : 'bg-red-300')} />
        </span>
        Live
      </span>
    );
  }
  const label: Record<Exclude<LiveStatus, 'live'>, string> = {
    connecting: 'Connecting…',
    reconnecting: 'Reconnecting…',
    ended: 'Ended',
    failed: 'Not available',
  };
  return (
    <span className="inline-flex items-center gap-1.5 text-[12px] font-medium text-zinc-500" data-testid="live-indicator">
      {(status === 'connecting' || status === 'reconnecting') && <Spinner className="size-3.5" />}
      {label[status]}
    </span>
  );
}

function formatAge(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}
