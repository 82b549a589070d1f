'use client';
// The header every capture's page has (a recording, a trace): when it started, its kind with its
// badges, where it stands, what can be done with it. The page's frame is components/ui/detail-frame.tsx.
import type { ReactNode } from 'react';
import { PageHeader } from '../ui/page-header';
import { Time } from '../ui/time';

/** The header of a capture: its start, its kind and badges, where it stands, its actions. */
export function CaptureHeader({
  startedAt,
  kind,
  badges,
  description,
  actions,
}: {
  startedAt: string;
  kind: string;
  badges: ReactNode;
  description: ReactNode;
  actions: ReactNode;
}) {
  return (
    <PageHeader
      eyebrow={<Time value={startedAt} relative />}
      title={
        <span className="flex flex-wrap items-center gap-3">
          {kind}
          {badges}
        </span>
      }
      description={description}
      actions={actions}
    />
  );
}
