import { api } from '@/lib/api/handler';
import { resendVerification } from '@/lib/users/verify-email';

// POST /api/verify-email/resend — signed in; sends a new verification link
export const POST = api({ workspace: 'none' }, (ctx) => resendVerification(ctx.user));
