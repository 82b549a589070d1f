'use client';
// Mail this installation kept instead of sending (no SMTP, or sending failed), as the signed-in user
// may read it: the mail to them (a verification or reset link) and the invitations they sent, with
// their text. The operator also sees everyone else's listed, without the content.
import { Fragment, useState } from 'react';
import { useMe } from '@/lib/client/me';
import { useOutbox, type OutboxMail } from '@/lib/client/outbox';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { DataTable, type Column } from '../ui/data-table';
import { Dialog } from '../ui/dialog';
import { EmptyState } from '../ui/empty-state';
import { InboxIcon, RefreshIcon } from '../ui/icons';
import { PageHeader } from '../ui/page-header';
import { Time, formatDateTime } from '../ui/time';

const DESCRIPTION =
  'Mail this installation wrote instead of sending (no SMTP server configured, or sending failed): the mail sent to you, and the invitations you sent';
const OPERATOR_NOTE = "As the operator you also see that other people's mail was written, without its content: only its recipient reads that";
/** Said instead of a mail's content to whoever may not read it (the operator). */
const CONTENT_HIDDEN = 'The content is only shown to its recipient';

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

function columns(open: (m: OutboxMail) => void): Column<OutboxMail>[] {
  return [
    { key: 'to', header: 'To', cell: (m) => <span className="font-medium text-zinc-900">{m.to}</span> },
    { key: 'subject', header: 'Subject', cell: (m) => m.subject },
    { key: 'created', header: 'Written', cell: (m) => <Time value={m.createdAt} relative /> },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      cell: (m) =>
        m.text === null ? (
          <span className="text-[13px] text-zinc-500">{CONTENT_HIDDEN}</span>
        ) : (
          <Button size="sm" variant="ghost" onClick={() => open(m)} aria-label={`Open mail to ${m.to}: ${m.subject}`}>
            Open
          </Button>
        ),
    },
  ];
}

function MailDialog({ mail, toMe, onClose }: { mail: OutboxMail; toMe: boolean; onClose: () => void }) {
  return (
    <Dialog
      open
      size="lg"
      onClose={onClose}
      title={mail.subject}
      description={
        <>
          To <span className="font-medium text-zinc-700">{mail.to}</span> · {formatDateTime(mail.createdAt)}
        </>
      }
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <LinkifiedText text={mail.text ?? ''} />
      <Alert tone="info">
        {toMe
          ? "Links in this mail act for you: don't pass them on."
          : `You sent this invitation: its link is for ${mail.to}. Pass it on to them another way; don't open it yourself.`}
      </Alert>
    </Dialog>
  );
}

export function OutboxPage() {
  const outbox = useOutbox();
  const { data: me } = useMe();
  const [open, setOpen] = useState<OutboxMail | null>(null);
  const total = outbox.data?.total;
  const shown = outbox.data?.items.length ?? 0;
  return (
    <>
      <PageHeader
        title="Outbox"
        description={me?.isAdmin ? `${DESCRIPTION}. ${OPERATOR_NOTE}.` : `${DESCRIPTION}.`}
        actions={
          <Button onClick={() => void outbox.refetch()} loading={outbox.isFetching && !outbox.isPending}>
            <RefreshIcon />
            Refresh
          </Button>
        }
      />
      <Card>
        <CardHeader
          title="Messages"
          description={total !== undefined ? `${total} in the outbox${total > shown ? `, newest ${shown} shown` : ''}.` : 'Newest first.'}
        />
        <DataTable<OutboxMail>
          label="Outbox"
          query={outbox}
          rows={outbox.data?.items}
          rowKey={(m) => m.id}
          empty={
            <EmptyState
              icon={<InboxIcon />}
              title="The outbox is empty"
              description="Mail goes out over SMTP when it is configured; only unsent mail lands here."
            />
          }
          columns={columns(setOpen)}
        />
      </Card>
      {open && <MailDialog mail={open} toMe={open.to === me?.user.email.toLowerCase()} onClose={() => setOpen(null)} />}
    </>
  );
}
