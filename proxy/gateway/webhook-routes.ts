// /v1/webhooks (docs/gateway.md, "Running it"): list, add, test and delete the webhooks the
// dashboard manages. gateway.yml's webhooks are listed and tested but only removed in the file.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../http/body';
import { json } from '../http/respond';
import type { EventSender } from './events';
import { newWebhookSchema, type WebhookStore } from './webhook-store';

export async function routeWebhooks(req: IncomingMessage, res: ServerResponse, path: string, webhooks: WebhookStore, events: EventSender): Promise<void> {
  const [, , , id, action] = path.split('/');
  if (!id) {
    if (req.method === 'GET') return json(res, 200, { webhooks: webhooks.list() });
    if (req.method !== 'POST') return json(res, 405, { error: 'GET or POST' }, { Allow: 'GET, POST' });
    const body = await readJson(req);
    if (body === undefined) return json(res, 400, { error: 'the body must be JSON' });
    const parsed = newWebhookSchema.safeParse(body);
    if (!parsed.success) return json(res, 400, { error: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ') });
    try {
      const webhook = webhooks.add(parsed.data);
      return json(res, 201, { webhook: webhooks.list().find((w) => w.id === webhook.id) });
    } catch (error) {
      if (error instanceof RangeError) return json(res, 409, { error: error.message });
      throw error;
    }
  }
  const webhook = webhooks.get(id);
  if (!webhook) return json(res, 404, { error: `no webhook ${id}` });
  if (action === 'test') {
    if (req.method !== 'POST') return json(res, 405, { error: 'POST only' }, { Allow: 'POST' });
    const result = await events.attempt(webhook.url, JSON.stringify(events.payload('test', {})));
    return json(res, 200, result);
  }
  if (action !== undefined) return json(res, 404, { error: `no route ${req.method} ${path}` });
  if (req.method === 'GET') return json(res, 200, { webhook: webhooks.list().find((w) => w.id === id) });
  if (req.method !== 'DELETE') return json(res, 405, { error: 'GET or DELETE' }, { Allow: 'GET, DELETE' });
  if (webhook.source === 'config') return json(res, 409, { error: `${id} is defined in gateway.yml; remove it there and restart` });
  webhooks.remove(id);
  res.writeHead(204).end();
}

const MAX_JSON_BYTES = 64 * 1024;

/** The body parsed as JSON; undefined when it is not JSON or too large. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req, { limit: MAX_JSON_BYTES });
  if (body === null) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
