// PostgreSQL LISTEN for cross-process signals (router changes, control-plane session close).
// A dedicated connection that reconnects after errors; lib/db stays the only place that opens one.
import pg from 'pg';
import { log } from '../log';

export interface Listener {
  stop(): Promise<void>;
}

export function listen(channels: string[], onNotify: (channel: string, payload: string) => void, onReconnect?: () => void): Listener {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (reconnected: boolean) => {
    const next = new pg.Client({ connectionString: process.env.DATABASE_URL });
    next.on('notification', (message) => onNotify(message.channel, message.payload ?? ''));
    next.on('error', (error) => {
      log.warn({ err: error.message }, 'LISTEN connection lost; reconnecting');
      next.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect(true), 500);
    });
    try {
      await next.connect();
      for (const channel of channels) await next.query(`LISTEN "${channel.replaceAll('"', '')}"`);
      client = next;
      // Anything missed while disconnected: the caller reloads what it caches.
      if (reconnected) onReconnect?.();
    } catch (error) {
      log.warn({ err: (error as Error).message }, 'LISTEN connection failed; retrying');
      if (!stopped) retry = setTimeout(() => void connect(true), 1_000);
    }
  };
  const ready = connect(false);

  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await ready;
      await client?.end().catch(() => {});
    },
  };
}
