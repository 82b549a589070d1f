import { api } from '@/lib/api/handler';
import { verifyEmailSchema } from '@/lib/users/schemas';
import { verifyEmail } from '@/lib/users/verify-email';

// POST /api/verify-email — { token } from the link in the verification e-mail
export const POST = api({ auth: 'optional', workspace: 'none', body: verifyEmailSchema }, (ctx) => verifyEmail(ctx.body.token));
