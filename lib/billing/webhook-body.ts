// A webhook's raw body, read as text and never parsed before its signature is checked (a parse
// and re-serialisation would change the bytes that were signed). Capped like every other body.
import { ApiError } from '../api/errors';
import { readCapped } from '../http/read-capped';
import { MAX_BODY_BYTES } from '../api/request-body';

export async function readWebhookBody(req: Request): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw new ApiError('payload_too_large', `a webhook body is at most ${MAX_BODY_BYTES} bytes`);
  if (!req.body) return '';
  const bytes = await readCapped(req.body, MAX_BODY_BYTES);
  if (bytes === null) throw new ApiError('payload_too_large', `a webhook body is at most ${MAX_BODY_BYTES} bytes`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError('validation_error', 'the body is not UTF-8');
  }
}
