// The proxy's live view of one session (GET /internal/sessions/:id/live, Server-Sent Events),
// passed through to the dashboard as it arrives. The web process calls the proxy with the internal
// service token, as for a router's live status. Nothing is buffered: each piece the proxy writes is
// handed on at once, and the upstream request ends when the browser goes away.
import { ApiError, notFound } from '../api/errors';
import { internalServiceToken } from '../crypto/internal-token';
import { log } from '../log';
import { proxyInternalUrl } from './status';

/** Until the proxy's answer starts; the stream itself runs as long as the session does. */
const CONNECT_TIMEOUT_MS = 5_000;

/** `proxyUrl`: the proxy holding the session (several may run); else the configured one. */
export async function streamLiveView(sessionId: string, client: AbortSignal, proxyUrl: string | null): Promise<Response> {
  const base = proxyUrl ?? proxyInternalUrl();
  const upstream = new AbortController();
  const stop = () => upstream.abort();
  client.addEventListener('abort', stop, { once: true });
  const done = () => client.removeEventListener('abort', stop);

  let response: Response;
  const timer = setTimeout(stop, CONNECT_TIMEOUT_MS);
  try {
    response = await fetch(`${base}/internal/sessions/${encodeURIComponent(sessionId)}/live`, {
      headers: { Authorization: `Bearer ${internalServiceToken()}`, Accept: 'text/event-stream' },
      cache: 'no-store',
      signal: upstream.signal,
    });
  } catch (error) {
    done();
    log.warn({ err: (error as Error).message, proxy: base, sessionId }, 'live view: proxy unreachable');
    throw new ApiError('internal_error', 'the proxy did not answer; try again in a moment');
  } finally {
    clearTimeout(timer);
  }

  if (!response.ok || !response.body) {
    done();
    throw await refusal(response, sessionId);
  }
  const stream = passThrough(
    response.body.getReader(),
    () => {
      done();
      upstream.abort();
    },
    done,
  );
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      // no-transform: the web server's gzip would otherwise hold events back to fill its buffer.
      'Cache-Control': 'no-store, no-transform',
      'X-Accel-Buffering': 'no',
    },
  });
}

/** Why the proxy would not stream this session, as the dashboard's route answers it. */
async function refusal(response: Response, sessionId: string): Promise<ApiError> {
  const reason = (await response.text().catch(() => '')).trim();
  if (response.status === 404) return notFound('live session on the proxy (it may have just ended)');
  // The session's recording exists (checked before): the proxy no longer captures it.
  if (response.status === 409)
    return new ApiError('conflict', 'the recording of this session has stopped: the session is ending, or the recording reached its size or wallet limit');
  log.warn({ status: response.status, reason, sessionId }, 'live view: unexpected proxy answer');
  return new ApiError('internal_error', `the proxy answered HTTP ${response.status}`);
}

/** The proxy's bytes handed on as they come; `cancelled` when the browser goes away, `ended` when the proxy does. */
function passThrough(reader: ReadableStreamDefaultReader<Uint8Array>, cancelled: () => void, ended: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          ended();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch {
        // The proxy went away mid-stream: end the browser's stream; its EventSource asks again and
        // learns from this route's answer why there is nothing to watch.
        ended();
        controller.close();
      }
    },
    cancel: cancelled,
  });
}
