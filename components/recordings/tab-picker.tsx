'use client';
// The frame player's tab: a picker when the recording has several tabs with frames, else the one
// tab's name; and the page the tab shows at the player's position, when it went to several.
// A tab is named by its pages (GET /v1/replays/:id/manifest, targets[].pages).
import { pageAt, pageName, tabLabel } from '@/lib/client/recording-frames';
import type { RecordingManifest } from '@/lib/client/recordings';
import { Select } from '../ui/input';

type Target = RecordingManifest['targets'][number];

export function TabPicker({
  targets,
  targetId,
  position,
  onPick,
}: {
  targets: Target[];
  targetId: string | null;
  position: number;
  onPick: (id: string) => void;
}) {
  const target = targets.find((t) => t.targetId === targetId) ?? null;
  const pages = target?.pages ?? [];
  const at = pageAt(pages, position);
  return (
    <div className="ml-auto flex min-w-0 flex-wrap items-center justify-end gap-x-3 gap-y-1 text-[13px] text-zinc-500">
      {targets.length > 1 ? (
        <label className="flex min-w-0 items-center gap-1.5">
          Tab
          <Select value={targetId ?? ''} onChange={(e) => onPick(e.target.value)} className="h-8 max-w-64 min-w-0 py-0 text-[13px]" aria-label="Tab">
            {targets.map((t, i) => (
              <option key={t.targetId} value={t.targetId}>
                {i + 1}. {tabLabel(t, i + 1)} ({t.frameCount.toLocaleString('en')} frames)
              </option>
            ))}
          </Select>
        </label>
      ) : (
        target && (
          <span className="truncate" title={target.url}>
            {tabLabel(target, 1)}
          </span>
        )
      )}
      {pages.length > 1 && (
        <span className="max-w-72 truncate" title={pages[at]!.url} data-testid="current-page">
          Page {at + 1} of {pages.length}: {pageName(pages[at]!)}
        </span>
      )}
    </div>
  );
}
