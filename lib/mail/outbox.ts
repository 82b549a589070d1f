// The local outbox for installations without SMTP (or where sending failed), as one user may read
// it. A mail's text (its links act for the recipient) is shown only to its recipient (the account
// whose e-mail is its `to`), except an invitation's, which only whoever sent it (`senderUserId`)
// sees, to pass it on: an account with the invited address proves nothing (anyone may sign up with
// it unverified), so it must not read the link that would let it in. Everyone else sees none of
// it, except the instance operator, who sees that each mail was written (to, subject, time) with
// `text: null`.
import { db, type Prisma } from '../db';
import { isInstanceAdmin } from '../users/instance-admin';

const OUTBOX_PAGE = 200;

export interface OutboxItem {
  id: string;
  to: string;
  subject: string;
  /** Null when the reader is the operator and the mail is neither to nor from them. */
  text: string | null;
  createdAt: string;
}

export async function readOutbox(user: { id: string; email: string }): Promise<{ items: OutboxItem[]; total: number }> {
  const email = user.email.toLowerCase();
  const own: Prisma.MailOutboxWhereInput = { OR: [{ to: email, senderUserId: null }, { senderUserId: user.id }] };
  const where = (await isInstanceAdmin(user)) ? {} : own;
  const [rows, total] = await Promise.all([
    db.mailOutbox.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: OUTBOX_PAGE,
      select: { id: true, to: true, subject: true, text: true, senderUserId: true, createdAt: true },
    }),
    db.mailOutbox.count({ where }),
  ]);
  const items = rows.map((m) => {
    const readable = m.senderUserId === null ? m.to === email : m.senderUserId === user.id;
    return { id: m.id, to: m.to, subject: m.subject, text: readable ? m.text : null, createdAt: m.createdAt.toISOString() };
  });
  return { items, total };
}
