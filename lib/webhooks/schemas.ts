// Webhook inputs (docs/api.md, Webhooks): label and url required, events omitted (or empty) = every
// event, routerInstanceId null = all routers. Shared by the route handlers, the dashboard and tests.
import { z } from 'zod';
import { ACCEPTED_EVENTS } from './events';
import { hasUserinfo, parseWebhookUrl } from './mask-url';

export const WEBHOOKS_PER_WORKSPACE = 100;
export const URL_MAX_LENGTH = 2_048;

export const webhookLabelSchema = z.string().trim().min(1, 'enter a label').max(100, 'must be at most 100 characters');

export const webhookUrlSchema = z
  .string({ message: 'enter the address to POST to' })
  .trim()
  .min(1, 'enter the address to POST to')
  .max(URL_MAX_LENGTH, `must be at most ${URL_MAX_LENGTH} characters`)
  .refine((value) => parseWebhookUrl(value) !== null, 'must be an http:// or https:// address')
  .refine((value) => {
    const url = parseWebhookUrl(value);
    return url === null || !hasUserinfo(url);
  }, "must not contain a user name or password (user:password@host); put the receiver's secret in the path or the query string");

const eventName = z.enum(ACCEPTED_EVENTS, {
  error: (issue) => `unknown event ${JSON.stringify(issue.input)}; accepted: ${ACCEPTED_EVENTS.join(', ')}`,
});

/** Duplicates are dropped; an empty list stores "every event". */
export const webhookEventsSchema = z
  .array(eventName, { message: 'must be a list of event names' })
  .max(ACCEPTED_EVENTS.length * 2)
  .transform((list) => [...new Set(list)]);

const routerIdSchema = z.string().min(1).max(64).nullable();

export const createWebhookSchema = z.strictObject({
  label: webhookLabelSchema,
  url: webhookUrlSchema,
  events: webhookEventsSchema.optional(),
  routerInstanceId: routerIdSchema.optional(),
});

export const updateWebhookSchema = z.strictObject({
  label: webhookLabelSchema.optional(),
  url: webhookUrlSchema.optional(),
  events: webhookEventsSchema.optional(),
  routerInstanceId: routerIdSchema.optional(),
  active: z.boolean({ message: 'must be true or false' }).optional(),
});

export const listWebhooksQuery = z.object({
  page: z.coerce.number().int().min(1, 'must be 1 or more').default(1),
  pageSize: z.coerce.number().int().min(1).max(100, 'must be at most 100').default(25),
});

export const listDeliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200, 'must be at most 200').default(50),
});

export type CreateWebhookInput = z.infer<typeof createWebhookSchema>;
export type UpdateWebhookInput = z.infer<typeof updateWebhookSchema>;
