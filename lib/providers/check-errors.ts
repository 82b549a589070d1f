// Why a provider check failed, worded for the person who typed the address. Messages name the
// host and port only: paths and query strings may carry tokens.

export class ProviderCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderCheckError';
  }

  /**
   * Maps a socket or fetch failure (fetch wraps it in `cause`) to a reason. `waitingFor` names
   * what did not come, e.g. "WebSocket upgrade".
   */
  static fromNetwork(error: unknown, host: string, timeoutMs: number, waitingFor: string): ProviderCheckError {
    if (error instanceof ProviderCheckError) return error;
    const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string; name?: string } };
    const name = err?.name ?? err?.cause?.name;
    const code = err?.code ?? err?.cause?.code;
    if (name === 'TimeoutError' || name === 'AbortError' || code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
      return new ProviderCheckError(`no ${waitingFor} from ${host} within ${timeoutMs} ms`);
    }
    switch (code) {
      case 'ECONNREFUSED':
        return new ProviderCheckError(`connection refused by ${host} (nothing listens there)`);
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return new ProviderCheckError(`host not found: ${host}`);
      case 'ECONNRESET':
      case 'EPIPE':
      case 'UND_ERR_SOCKET':
        return new ProviderCheckError(`${host} closed the connection before the ${waitingFor}`);
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return new ProviderCheckError(`${host} is unreachable from here`);
    }
    if (typeof code === 'string' && /CERT|TLS|SSL/.test(code)) return new ProviderCheckError(`TLS failed with ${host} (${code})`);
    const detail = err?.cause?.message ?? err?.message ?? 'unknown error';
    return new ProviderCheckError(`could not reach ${host}: ${detail}`);
  }
}
