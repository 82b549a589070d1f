// Stand-in for Stripe's API (docs/billing-payments.md): a real HTTP server answering the requests
// the `stripe` package really sends (form-encoded bodies, bearer secret key, `Idempotency-Key`),
// for the parts the billing code uses:
//   POST /v1/checkout/sessions                       create (mode payment, price_data in usd)
//   GET  /v1/checkout/sessions/:id                   retrieve
//   GET  /v1/checkout/sessions?payment_intent=pi_…   list by payment intent
//   GET  /v1/payment_intents/:id, GET /v1/charges/:id
// Idempotency as Stripe documents it: the same key with the same parameters answers the first
// response again (`Idempotent-Replayed: true`); with other parameters it is a 400
// `idempotency_error`. Every API request is recorded (`calls`).
//
// The test side is this module's object, not HTTP: `pay` (at once or asynchronously), `settle`,
// `expire` and `refund` change the objects and return the events Stripe would send (nothing is
// sent by itself); `deliver` posts an event to a URL signed as Stripe signs
// (`Stripe-Signature: t=…,v1=HMAC-SHA256(whsec, "t.body")`), or with a bad signature, as often
// and in whatever order the test wants. `down` makes the API unreachable (connections reset).
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StripeCall {
  method: string;
  path: string;
  query: Record<string, unknown>;
  /** The form body, decoded into nested objects and arrays. */
  params: Record<string, unknown>;
  idempotencyKey: string | null;
  /** The response was a replay of an earlier one with the same key. */
  replayed: boolean;
  status: number;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  livemode: false;
  api_version: string;
  pending_webhooks: number;
  data: { object: Record<string, unknown> };
}

export interface Delivery {
  status: number;
  body: any;
}

export interface StripeStandIn {
  url: string;
  calls: StripeCall[];
  sessions: Map<string, Record<string, any>>;
  charges: Map<string, Record<string, any>>;
  /** true: every API request's connection is reset, as if Stripe were unreachable. */
  down: boolean;
  /** Completes a session. `async`: a delayed payment method, payment_status `unpaid` until `settle`. */
  pay(sessionId: string, options?: { async?: boolean }): { completed: StripeEvent; charge: Record<string, any> };
  /** Settles an asynchronous payment: async_payment_succeeded (or _failed). */
  settle(sessionId: string, succeeded?: boolean): StripeEvent;
  expire(sessionId: string): StripeEvent;
  /** Refunds `amount` cents (default: the rest) of a charge; `withRefunds` includes the charge's refund list in the event. */
  refund(chargeId: string, amount?: number, options?: { withRefunds?: boolean }): { event: StripeEvent; refundId: string };
  /** Posts the event to `url`, signed with the webhook secret (or a wrong one). */
  deliver(url: string, event: StripeEvent, options?: { badSignature?: boolean; noSignature?: boolean }): Promise<Delivery>;
  stop(): Promise<void>;
}

const API_VERSION = '2026-10-28.endive';
const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const now = () => Math.floor(Date.now() / 1000);
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Decodes `a[b][0][c]=1&metadata[x]=y` (the encoding the stripe package sends) into nested objects and arrays. */
export function decodeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: any = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]!);
      if (last) node[part] = value;
      else node = node[part] ??= nextIsIndex ? [] : {};
    });
  }
  return root;
}

function stripeError(status: number, type: string, message: string, extra: Record<string, unknown> = {}) {
  return { status, body: { error: { type, message, ...extra } } };
}

export async function startStripeStandIn(options: { apiKey: string; webhookSecret: string }): Promise<StripeStandIn> {
  const calls: StripeCall[] = [];
  const sessions = new Map<string, Record<string, any>>();
  const intents = new Map<string, Record<string, any>>();
  const charges = new Map<string, Record<string, any>>();
  const idempotency = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  let base = '';

  function route(method: string, path: string, query: Record<string, unknown>, params: Record<string, unknown>): { status: number; body: unknown } {
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (params.mode !== 'payment') return stripeError(400, 'invalid_request_error', 'mode: only `payment` is played by this stand-in', { param: 'mode' });
      const items = params.line_items as { quantity?: string; price_data?: { currency?: string; unit_amount?: string } }[] | undefined;
      if (!Array.isArray(items) || items.length === 0)
        return stripeError(400, 'invalid_request_error', 'line_items: required in payment mode', { param: 'line_items' });
      let amount = 0;
      for (const item of items) {
        const unit = Number(item.price_data?.unit_amount);
        if (item.price_data?.currency !== 'usd' || !Number.isInteger(unit) || unit < 50)
          return stripeError(400, 'invalid_request_error', 'line_items: price_data needs currency and an integer unit_amount of at least 50', {
            param: 'line_items',
          });
        amount += unit * Number(item.quantity ?? 1);
      }
      if (typeof params.success_url !== 'string') return stripeError(400, 'invalid_request_error', 'success_url: required', { param: 'success_url' });
      const sessionId = id('cs');
      const session = {
        id: sessionId,
        object: 'checkout.session',
        mode: 'payment',
        status: 'open',
        payment_status: 'unpaid',
        amount_total: amount,
        amount_subtotal: amount,
        currency: 'usd',
        client_reference_id: params.client_reference_id ?? null,
        metadata: params.metadata ?? {},
        success_url: params.success_url,
        cancel_url: params.cancel_url ?? null,
        payment_intent: null,
        url: `${base}/pay/${sessionId}`,
        created: now(),
        expires_at: now() + 86_400,
        livemode: false,
      };
      sessions.set(sessionId, session);
      return { status: 200, body: session };
    }
    if (method === 'GET' && path === '/v1/checkout/sessions') {
      const pi = query.payment_intent;
      const data = [...sessions.values()]
        .filter((s) => !pi || s.payment_intent === pi)
        .reverse()
        .slice(0, Number(query.limit ?? 10));
      return { status: 200, body: { object: 'list', url: '/v1/checkout/sessions', has_more: false, data } };
    }
    let match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const session = sessions.get(match[1]!);
      return session
        ? { status: 200, body: session }
        : stripeError(404, 'invalid_request_error', `No such checkout.session: '${match[1]}'`, { code: 'resource_missing' });
    }
    match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const intent = intents.get(match[1]!);
      return intent
        ? { status: 200, body: intent }
        : stripeError(404, 'invalid_request_error', `No such payment_intent: '${match[1]}'`, { code: 'resource_missing' });
    }
    match = /^\/v1\/charges\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const charge = charges.get(match[1]!);
      return charge ? { status: 200, body: charge } : stripeError(404, 'invalid_request_error', `No such charge: '${match[1]}'`, { code: 'resource_missing' });
    }
    return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  const stand = {} as StripeStandIn;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (stand.down) {
        req.socket.destroy();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const method = req.method ?? 'GET';
      const raw = Buffer.concat(chunks).toString('utf8');
      const params = method === 'GET' ? {} : decodeForm(raw);
      const query = decodeForm(url.search.slice(1));
      const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
      const send = (status: number, body: unknown, replayed = false) => {
        calls.push({ method, path: url.pathname, query, params, idempotencyKey: key, replayed, status });
        res.writeHead(status, {
          'content-type': 'application/json',
          'request-id': `req_${randomBytes(8).toString('hex')}`,
          ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
        });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${options.apiKey}`) {
        const e = stripeError(401, 'invalid_request_error', 'Invalid API Key provided.');
        return send(e.status, e.body);
      }
      if (key && method === 'POST') {
        const fingerprint = `${method} ${url.pathname} ${JSON.stringify(params)}`;
        const seen = idempotency.get(key);
        if (seen && seen.fingerprint !== fingerprint) {
          const e = stripeError(
            400,
            'idempotency_error',
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          );
          return send(e.status, e.body);
        }
        if (seen) return send(seen.status, seen.body, true);
        const answer = route(method, url.pathname, query, params);
        idempotency.set(key, { fingerprint, status: answer.status, body: answer.body });
        return send(answer.status, answer.body);
      }
      const answer = route(method, url.pathname, query, params);
      send(answer.status, answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const event = (type: string, object: Record<string, unknown>): StripeEvent => ({
    id: id('evt'),
    object: 'event',
    type,
    created: now(),
    livemode: false,
    api_version: API_VERSION,
    pending_webhooks: 1,
    data: { object: clone(object) },
  });
  const session = (sessionId: string) => {
    const found = sessions.get(sessionId);
    if (!found) throw new Error(`no checkout session ${sessionId} at the Stripe stand-in`);
    return found;
  };

  Object.assign(stand, {
    url: base,
    calls,
    sessions,
    charges,
    down: false,
    pay(sessionId: string, payOptions: { async?: boolean } = {}) {
      const s = session(sessionId);
      if (s.status !== 'open') throw new Error(`session ${sessionId} is ${s.status}`);
      const intentId = id('pi');
      const chargeId = id('ch');
      const charge = {
        id: chargeId,
        object: 'charge',
        amount: s.amount_total,
        amount_captured: payOptions.async ? 0 : s.amount_total,
        amount_refunded: 0,
        currency: 'usd',
        paid: !payOptions.async,
        refunded: false,
        captured: !payOptions.async,
        status: payOptions.async ? 'pending' : 'succeeded',
        payment_intent: intentId,
        receipt_url: `${base}/receipts/${chargeId}`,
        created: now(),
        metadata: {},
        livemode: false,
      };
      charges.set(chargeId, charge);
      intents.set(intentId, {
        id: intentId,
        object: 'payment_intent',
        amount: s.amount_total,
        currency: 'usd',
        status: payOptions.async ? 'processing' : 'succeeded',
        latest_charge: chargeId,
        created: now(),
        metadata: {},
        livemode: false,
      });
      Object.assign(s, { status: 'complete', payment_status: payOptions.async ? 'unpaid' : 'paid', payment_intent: intentId });
      return { completed: event('checkout.session.completed', s), charge: clone(charge) };
    },
    settle(sessionId: string, succeeded = true) {
      const s = session(sessionId);
      const intent = intents.get(s.payment_intent)!;
      const charge = charges.get(intent.latest_charge)!;
      if (succeeded) {
        Object.assign(charge, { status: 'succeeded', paid: true, captured: true, amount_captured: charge.amount });
        intent.status = 'succeeded';
        s.payment_status = 'paid';
        return event('checkout.session.async_payment_succeeded', s);
      }
      Object.assign(charge, { status: 'failed' });
      intent.status = 'requires_payment_method';
      return event('checkout.session.async_payment_failed', s);
    },
    expire(sessionId: string) {
      const s = session(sessionId);
      if (s.status !== 'open') throw new Error(`session ${sessionId} is ${s.status}`);
      Object.assign(s, { status: 'expired', url: null });
      return event('checkout.session.expired', s);
    },
    refund(chargeId: string, amount?: number, refundOptions: { withRefunds?: boolean } = {}) {
      const charge = charges.get(chargeId);
      if (!charge) throw new Error(`no charge ${chargeId}`);
      const rest = charge.amount - charge.amount_refunded;
      const value = amount ?? rest;
      if (value <= 0 || value > rest) throw new Error(`cannot refund ${value} of ${rest} left`);
      const refundId = id('re');
      charge.refund_list = [
        { id: refundId, object: 'refund', amount: value, charge: chargeId, created: now(), status: 'succeeded' },
        ...(charge.refund_list ?? []),
      ];
      charge.amount_refunded += value;
      charge.refunded = charge.amount_refunded === charge.amount;
      const { refund_list: list, ...shown } = charge;
      const object = refundOptions.withRefunds ? { ...shown, refunds: { object: 'list', data: list, has_more: false } } : shown;
      return { event: event('charge.refunded', object), refundId };
    },
    async deliver(url: string, ev: StripeEvent, deliverOptions: { badSignature?: boolean; noSignature?: boolean } = {}) {
      const body = JSON.stringify(ev, null, 2); // Stripe sends pretty-printed JSON: the signed bytes are these
      const t = now();
      const secret = deliverOptions.badSignature ? `${options.webhookSecret}x` : options.webhookSecret;
      const signature = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
      const headers: Record<string, string> = {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      };
      if (!deliverOptions.noSignature) headers['stripe-signature'] = `t=${t},v1=${signature}`;
      const response = await fetch(url, { method: 'POST', headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: response.status, body: parsed };
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
  return stand;
}
