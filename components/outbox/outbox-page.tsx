'use client';
// The operator's view of mail that was not sent: without SMTP, verification and invitation links
// are read (and passed on) from here.
import { Fragment, useState } from 'react';
import { useOutbox, type OutboxMail } from '@/lib/client/outbox';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { DataTable } from '../ui/data-table';
import { Dialog } from '../ui/dialog';
import { EmptyState } from '../ui/empty-state';
import { InboxIcon, RefreshIcon } from '../ui/icons';
import { PageHeader } from '../ui/page-header';
import { Time, formatDateTime } from '../ui/time';

/** Plain text with its http(s) links clickable. */
function LinkifiedText({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s<>"]+)/g);
  return (
    <pre className="max-h-96 overflow-auto rounded-lg border border-zinc-200 bg-zinc-50 p-4 font-sans text-sm leading-relaxed whitespace-pre-wrap text-zinc-800">
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={part} className="break-all text-accent-600 underline decoration-accent-300 underline-offset-2 hover:text-accent-700">
            {part}
          </a>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </pre>
  );
}

export function OutboxPage() {
  const outbox = useOutbox();
  const [open, setOpen] = useState<OutboxMail | null>(null);
  return (
    <>
      <PageHeader
        eyebrow="Operator"
        title="Outbox"
        description="Mail this installation wrote to its database instead of sending, because no SMTP server is configured (SMTP_URL) or sending failed. Pass the links on to the people they were meant for."
        actions={
          <Button onClick={() => void outbox.refetch()} loading={outbox.isFetching && !outbox.isPending}>
            <RefreshIcon />
            Refresh
          </Button>
        }
      />
      <Card>
        <CardHeader title="Messages" description={outbox.data ? `${outbox.data.total} in the outbox${outbox.data.total > outbox.data.items.length ? `, newest ${outbox.data.items.length} shown` : ''}.` : 'Newest first.'} />
        <DataTable<OutboxMail>
          label="Outbox"
          query={outbox}
          rows={outbox.data?.items}
          rowKey={(m) => m.id}
          empty={<EmptyState icon={<InboxIcon />} title="The outbox is empty" description="Mail goes out over SMTP when it is configured; only unsent mail lands here." />}
          columns={[
            { key: 'to', header: 'To', cell: (m) => <span className="font-medium text-zinc-900">{m.to}</span> },
            { key: 'subject', header: 'Subject', cell: (m) => m.subject },
            { key: 'created', header: 'Written', cell: (m) => <Time value={m.createdAt} relative /> },
            {
              key: 'actions',
              header: <span className="sr-only">Actions</span>,
              className: 'text-right',
              cell: (m) => (
                <Button size="sm" variant="ghost" onClick={() => setOpen(m)} aria-label={`Open mail to ${m.to}: ${m.subject}`}>
                  Open
                </Button>
              ),
            },
          ]}
        />
      </Card>
      {open && (
        <Dialog
          open
          size="lg"
          onClose={() => setOpen(null)}
          title={open.subject}
          description={
            <>
              To <span className="font-medium text-zinc-700">{open.to}</span> · {formatDateTime(open.createdAt)}
            </>
          }
          footer={<Button onClick={() => setOpen(null)}>Close</Button>}
        >
          <LinkifiedText text={open.text} />
          <Alert tone="info">Links in this mail act for its recipient. Send them on; don&apos;t open them yourself.</Alert>
        </Dialog>
      )}
    </>
  );
}
