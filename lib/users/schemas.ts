import { z } from 'zod';

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'enter a valid e-mail address' }).max(254));
export const passwordSchema = z.string().min(10, 'use at least 10 characters').max(200, 'use at most 200 characters');
export const nameSchema = z.string().trim().min(1, 'enter your name').max(100);

export const signInSchema = z.object({ email: emailSchema, password: z.string().min(1).max(200) });

export const signUpSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
});

export const verifyEmailSchema = z.object({ token: z.string().min(10).max(200) });

// ---------------------------------------------------------------- password reset and the account

export const passwordResetRequestSchema = z.object({ email: emailSchema });

export const passwordResetCompleteSchema = z.object({
  token: z.string().min(10, 'the link has no valid token; open it again from the e-mail').max(200),
  password: passwordSchema,
});

/** PATCH /v1/account: what a user may change about themselves (the e-mail is not among it). */
export const updateAccountSchema = z.strictObject({ name: nameSchema });

export const changePasswordSchema = z.strictObject({
  currentPassword: z.string().min(1, 'enter your current password').max(200),
  newPassword: passwordSchema,
});

/** The dashboard's forms ask for the new password twice; the second entry never leaves the page. */
const sameTwice = { path: ['confirm'], message: 'the two passwords differ' };

export const resetPasswordFormSchema = z.object({ password: passwordSchema, confirm: z.string() }).refine((v) => v.password === v.confirm, sameTwice);

export const changePasswordFormSchema = z
  .object({ currentPassword: changePasswordSchema.shape.currentPassword, newPassword: passwordSchema, confirm: z.string() })
  .refine((v) => v.newPassword === v.confirm, sameTwice);
