import { z } from 'zod';
import { emailSchema } from '../users/schemas';

export const createInvitationSchema = z.object({
  email: emailSchema,
  role: z.enum(['admin', 'member'], { message: 'role must be admin or member' }),
});
