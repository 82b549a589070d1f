// Stripe's webhook signature format, for both processors: `Stripe-Signature: t=<unix seconds>,
// v1=<hex>[,v1=<hex>…]`, where v1 is HMAC-SHA256 over `${t}.${raw body}` keyed with the endpoint
// secret (`whsec_…`, the whole string). Events older or newer than the tolerance are refused, so
// a captured delivery cannot be replayed later (the event-id table refuses it within the window).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookSignatureError } from './types';

export const SIGNATURE_HEADER = 'stripe-signature';
/** Stripe's default: five minutes either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export const signaturePayload = (timestamp: number, rawBody: string) => `${timestamp}.${rawBody}`;

export function computeSignature(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(signaturePayload(timestamp, rawBody), 'utf8').digest('hex');
}

/** The header value for `rawBody` signed now (or at `timestamp`, Unix seconds). */
export function signatureHeader(secret: string, rawBody: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${computeSignature(secret, timestamp, rawBody)}`;
}

/** Throws WebhookSignatureError unless `header` carries a valid, recent v1 signature of `rawBody`. */
export function verifySignature(rawBody: string, header: string | null, secret: string, now = Date.now(), tolerance = SIGNATURE_TOLERANCE_SECONDS): void {
  if (!header) throw new WebhookSignatureError('the Stripe-Signature header is missing');
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === null || signatures.length === 0) throw new WebhookSignatureError('the Stripe-Signature header has no timestamp or no v1 signature');
  const expected = Buffer.from(computeSignature(secret, timestamp, rawBody), 'hex');
  if (!signatures.some((s) => timingSafeEqual(Buffer.from(s, 'hex'), expected))) {
    throw new WebhookSignatureError('the Stripe-Signature header does not match the body');
  }
  if (Math.abs(Math.floor(now / 1000) - timestamp) > tolerance) {
    throw new WebhookSignatureError('the Stripe-Signature timestamp is outside the tolerance');
  }
}

/** Parses a verified body into an event, refusing anything that is not an event envelope. */
export function parseEvent(rawBody: string): { id: string; type: string; created?: number; data: { object: Record<string, unknown> } } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    throw new WebhookSignatureError('the body is not JSON');
  }
  const event = parsed as { id?: unknown; type?: unknown; created?: unknown; data?: { object?: unknown } } | null;
  if (
    !event ||
    typeof event.id !== 'string' ||
    typeof event.type !== 'string' ||
    !event.data ||
    typeof event.data.object !== 'object' ||
    event.data.object === null
  ) {
    throw new WebhookSignatureError('the body is not an event');
  }
  return {
    id: event.id,
    type: event.type,
    created: typeof event.created === 'number' ? event.created : undefined,
    data: { object: event.data.object as Record<string, unknown> },
  };
}
