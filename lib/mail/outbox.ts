// The local outbox for installations without SMTP: only the instance operator reads it.
import { db } from '../db';
import { forbidden } from '../api/errors';
import { isInstanceAdmin } from '../users/instance-admin';

const OUTBOX_PAGE = 200;

export async function readOutbox(user: { id: string; email: string }) {
  if (!(await isInstanceAdmin(user))) throw forbidden('only the operator of this installation can read the outbox');
  const [items, total] = await Promise.all([
    db.mailOutbox.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: OUTBOX_PAGE, select: { id: true, to: true, subject: true, text: true, createdAt: true } }),
    db.mailOutbox.count(),
  ]);
  return { items: items.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })), total };
}
