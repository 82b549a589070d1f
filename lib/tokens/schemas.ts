import { z } from 'zod';

export const createAccessTokenSchema = z.object({ label: z.string().trim().min(1, 'enter a label').max(100) });
