'use client';
// The ids a capture's page shows (its session's, linked to the session; its own), each copyable.
import Link from 'next/link';
import { CopyButton } from '../ui/copy-button';

/** The session the capture belongs to: a link that opens it, and its id to copy. */
export function SessionIdValue({ sessionId }: { sessionId: string }) {
  return (
    <span className="flex items-center justify-between gap-2">
      <Link href={`/sessions?session=${encodeURIComponent(sessionId)}`} className="truncate font-mono text-[13px] text-accent-700 hover:underline">
        {sessionId}
      </Link>
      <CopyButton value={sessionId} label="Copy session ID" variant="ghost" />
    </span>
  );
}

/** An id with its copy button (`label` names what is copied). */
export function CopyableId({ id, label }: { id: string; label: string }) {
  return (
    <span className="flex items-center justify-between gap-2">
      <code className="truncate font-mono text-[13px]">{id}</code>
      <CopyButton value={id} label={label} variant="ghost" />
    </span>
  );
}
