import { api } from '@/lib/api/handler';
import { readOutbox } from '@/lib/mail/outbox';

// GET /api/admin/outbox — instance operator only; the newest mail written to the local outbox
// (no SMTP_URL, or sending failed). Dashboard page: Outbox.
export const GET = api({ workspace: 'none' }, (ctx) => readOutbox(ctx.user));
