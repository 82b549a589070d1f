import { endpoint } from '@/lib/api/endpoint';
import { mailDashboardEndpoints } from '@/lib/mail/endpoints';
import { readOutbox } from '@/lib/mail/outbox';

// GET /api/outbox — any signed-in user; the newest mail written to the local outbox (no SMTP_URL,
// or sending failed) that is theirs to read: to them, or an invitation they sent, with its text.
// The instance operator also gets everyone else's, without the text. Dashboard page: Outbox.
export const GET = endpoint(mailDashboardEndpoints.readOutbox, (ctx) => readOutbox(ctx.user));
