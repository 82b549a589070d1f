// Inputs of the operator's endpoints (/v1/admin/*, docs/api.md, Operator).
import { z } from 'zod';
import { MAX_GRANT_CENTS } from '../billing/rates';
import { intParam } from '../billing/read-schemas';

export const findWorkspacesQuery = z.object({
  q: z.string().trim().max(200, 'must be at most 200 characters').optional(),
  page: intParam(1, 100_000, 1),
  pageSize: intParam(1, 100, 25),
});

export const grantCreditsSchema = z.strictObject({
  amountCents: z
    .int('use a whole number of cents')
    .min(1, 'must be at least 1')
    .max(MAX_GRANT_CENTS, `must be at most ${MAX_GRANT_CENTS.toLocaleString('en-US')}`),
  note: z.string().trim().max(500, 'must be at most 500 characters').nullish(),
});

export const updateWorkspaceSchema = z
  .strictObject({
    enterprise: z.boolean().optional(),
    suspended: z.boolean().optional(),
  })
  .refine((v) => v.enterprise !== undefined || v.suspended !== undefined, 'give enterprise, suspended or both');

export const listActionsQuery = z.object({
  workspaceId: z.string().trim().min(1).max(100, 'must be at most 100 characters').optional(),
  page: intParam(1, 100_000, 1),
  pageSize: intParam(1, 100, 25),
});

/** The token of the claim link `npm start` prints (`/claim-operator?token=…`). */
export const claimOperatorSchema = z.strictObject({
  token: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
});

export type FindWorkspacesQuery = z.infer<typeof findWorkspacesQuery>;
export type UpdateWorkspaceInput = z.infer<typeof updateWorkspaceSchema>;
export type ListActionsQuery = z.infer<typeof listActionsQuery>;
