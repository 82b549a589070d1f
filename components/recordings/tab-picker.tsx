'use client';
// The frame player's tab: a picker when the recording has several tabs with frames, else the one
// tab's name.
import type { RecordingManifest } from '@/lib/client/recordings';
import { Select } from '../ui/input';

type Target = RecordingManifest['targets'][number];

export const tabLabel = (target: Pick<Target, 'title' | 'url'>, n: number) => target.title || target.url || `Tab ${n}`;

export function TabPicker({ targets, targetId, onPick }: { targets: Target[]; targetId: string | null; onPick: (id: string) => void }) {
  const target = targets.find((t) => t.targetId === targetId) ?? null;
  return (
    <div className="ml-auto flex min-w-0 items-center gap-1.5 text-[13px] text-zinc-500">
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
        target && <span className="truncate" title={target.url}>{tabLabel(target, 1)}</span>
      )}
    </div>
  );
}
