// How the wrapper reads a JSON body: the size is capped before anything is buffered (the declared
// Content-Length first, then a running count for chunked bodies, cancelling the stream at the cap),
// a body that is not JSON is refused before it is read, and the bytes must be UTF-8 and JSON.
import { ApiError } from './errors';
import { readCapped } from '../http/read-capped';

/** Every control-plane body (the largest legitimate one, a provider with 20 headers, is a few KB). */
export const MAX_BODY_BYTES = 1024 * 1024;

export const NO_BODY = Symbol('no body');

const tooLarge = (max: number) =>
  new ApiError(
    'payload_too_large',
    max === MAX_BODY_BYTES
      ? `the request body is larger than ${MAX_BODY_BYTES.toLocaleString('en')} bytes (1 MB), the limit of the control-plane API`
      : `the request body is larger than ${max.toLocaleString('en')} bytes (${Math.round(max / 1024 / 1024)} MB), the limit of this endpoint`,
  );

/** `application/json`, with or without parameters, or any `application/…+json`. */
export function isJsonMediaType(contentType: string | null): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

function notJson(contentType: string | null): ApiError {
  const got = contentType ? `got "${contentType.split(';')[0]!.trim()}"` : 'no Content-Type was sent';
  return new ApiError('unsupported_media_type', `send the body as JSON with "Content-Type: application/json" (${got})`);
}

/**
 * The parsed JSON body, or NO_BODY when none was sent. Throws 413, 415 or 400 (not UTF-8, not JSON).
 * `max` is MAX_BODY_BYTES but for the few endpoints that take documents (profile uploads).
 */
export async function readJsonBody(req: Request, max = MAX_BODY_BYTES): Promise<unknown> {
  const length = req.headers.get('content-length');
  if (length !== null && Number(length) > max) throw tooLarge(max);
  const contentType = req.headers.get('content-type');
  const announced = (length !== null && length.trim() !== '0') || req.headers.has('transfer-encoding');
  if (announced && !isJsonMediaType(contentType)) throw notJson(contentType);
  if (!req.body) return NO_BODY;

  const bytes = await readCapped(req.body, max);
  if (!bytes) throw tooLarge(max);
  if (bytes.byteLength === 0) return NO_BODY;
  if (!isJsonMediaType(contentType)) throw notJson(contentType);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError('validation_error', 'the request body is not valid UTF-8');
  }
  if (text.trim() === '') return NO_BODY;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('validation_error', 'the request body is not valid JSON');
  }
}
