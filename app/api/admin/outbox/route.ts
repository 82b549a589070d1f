import { api } from '@/lib/api/handler';
import { forbidden } from '@/lib/api/errors';
import { db } from '@/lib/db';
import { isInstanceAdmin } from '@/lib/users/instance-admin';

const OUTBOX_PAGE = 200;

// GET /api/admin/outbox — instance operator only; the newest mail written to the local outbox
// (no SMTP_URL, or sending failed). Dashboard page: Outbox.
export const GET = api({ workspace: 'none' }, async (ctx) => {
  if (!(await isInstanceAdmin(ctx.user))) throw forbidden('only the operator of this installation can read the outbox');
  const [items, total] = await Promise.all([
    db.mailOutbox.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: OUTBOX_PAGE, select: { id: true, to: true, subject: true, text: true, createdAt: true } }),
    db.mailOutbox.count(),
  ]);
  return { items: items.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })), total };
});
