'use client';
// An id (or a slug) shown in full where there is room, with the button that copies it.
import { CopyButton } from './copy-button';

/** An id with its copy button (`label` names what is copied). */
export function CopyableId({ id, label }: { id: string; label: string }) {
  return (
    <span className="flex items-center justify-between gap-2">
      <code className="truncate font-mono text-[13px]">{id}</code>
      <CopyButton value={id} label={label} variant="ghost" />
    </span>
  );
}
