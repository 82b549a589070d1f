// A managed provider saying "no free browser right now" when asked for one: the local pool answers
// the upgrade with `503 pool at capacity (N sessions)` and `X-Pool-Full: 1` (proxy/pool/README.md).
// That is a full provider, not a failing one: the engine skips or waits for it (Reservation.full)
// and never counts it toward cooldown.

export const POOL_FULL_HEADER = 'x-pool-full';
const AT_CAPACITY_BODY = /^pool at capacity\b/i;

/** From the upgrade's status, headers (lower-case names) and as much of the body as arrived. */
export function isAtCapacity(status: number, headers: Record<string, string | undefined>, body: string): boolean {
  return status === 503 && (headers[POOL_FULL_HEADER] === '1' || AT_CAPACITY_BODY.test(body.trim()));
}

/**
 * From a CDP client's connect error: the provider's at-capacity body, or null. playwright-core
 * words an unexpected upgrade answer as `WebSocket error: <url> 503 Service Unavailable` with the
 * body on the next line (it keeps no headers).
 */
export function atCapacityInError(message: string): string | null {
  const body = / 503 [^\n]*\n([^\n]*)/.exec(message)?.[1]?.trim() ?? '';
  return AT_CAPACITY_BODY.test(body) ? body : null;
}
