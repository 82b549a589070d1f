import { z } from 'zod';

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email({ message: 'enter a valid e-mail address' }).max(254));
export const passwordSchema = z.string().min(10, 'use at least 10 characters').max(200, 'use at most 200 characters');

export const signInSchema = z.object({ email: emailSchema, password: z.string().min(1).max(200) });

export const signUpSchema = z.object({
  name: z.string().trim().min(1, 'enter your name').max(100),
  email: emailSchema,
  password: passwordSchema,
});

export const verifyEmailSchema = z.object({ token: z.string().min(10).max(200) });
