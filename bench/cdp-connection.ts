// A minimal CDP client for benchmarks: one WebSocket, numbered calls, an optional page session.
import WebSocket from 'ws';

export function openRaw(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
  });
}

export class CdpConnection {
  private nextId = 1;
  private pending = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
  private sessionId: string | undefined;
  readonly closed: Promise<void>;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: unknown };
      if (message.id === undefined) return;
      this.pending.get(message.id)?.(message);
      this.pending.delete(message.id);
    });
    this.closed = new Promise((r) => ws.once('close', () => r()));
  }

  static open(url: string): Promise<CdpConnection> {
    return openRaw(url).then((ws) => new CdpConnection(ws));
  }

  call(method: string, params: object = {}, sessionId = this.sessionId): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (m) => (m.error ? reject(new Error(JSON.stringify(m.error))) : resolve(m.result)));
      this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  async attachPage(): Promise<void> {
    const { targetId } = await this.call('Target.createTarget', { url: 'about:blank' }, undefined);
    this.sessionId = (await this.call('Target.attachToTarget', { targetId, flatten: true }, undefined)).sessionId;
  }

  evaluate(expression: string) {
    return this.call('Runtime.evaluate', { expression, returnByValue: true });
  }

  close() {
    this.ws.close();
  }
}
