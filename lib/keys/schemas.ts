import { z } from 'zod';

// The router comes from X-Router-Id, the query's routerInstanceId or this body's, as for every key endpoint.
export const createRouterKeySchema = z.strictObject({
  label: z.string().trim().min(1, 'enter a label').max(100),
  routerInstanceId: z.string().min(1).max(64).optional(),
});

export const rotateRouterKeysSchema = z
  .strictObject({
    label: z.string().trim().min(1).max(100).optional(),
    routerInstanceId: z.string().min(1).max(64).optional(),
  })
  .optional();
