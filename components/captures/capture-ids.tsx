'use client';
// The session a capture's page names: linked to the session, and copyable.
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
