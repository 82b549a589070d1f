// PostgreSQL LISTEN for cross-process signals (router changes, control-plane session close).
// A dedicated connection that reconnects after errors; lib/db stays the only place that opens one.
import pg from 'pg';
import { log } from '../log';
import { settings } from '../config/settings';

export interface Listener {
  stop(): Promise<void>;
}

/**
 * `onListening` runs each time the LISTEN takes effect, the first time included: a signal sent
 * before then (while connecting, or while disconnected) was missed, so the caller catches up.
 */
export function listen(channels: string[], onNotify: (channel: string, payload: string) => void, onListening?: () => void): Listener {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const next = new pg.Client({ connectionString: settings().databaseUrl ?? undefined });
    next.on('notification', (message) => onNotify(message.channel, message.payload ?? ''));
    next.on('error', (error) => {
      log.warn({ err: error.message }, 'LISTEN connection lost; reconnecting');
      next.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect(), 500);
    });
    try {
      await next.connect();
      for (const channel of channels) await next.query(`LISTEN "${channel.replaceAll('"', '')}"`);
      client = next;
      onListening?.();
    } catch (error) {
      log.warn({ err: (error as Error).message }, 'LISTEN connection failed; retrying');
      if (!stopped) retry = setTimeout(() => void connect(), 1_000);
    }
  };
  const ready = connect();

  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await ready;
      await client?.end().catch(() => {});
    },
  };
}
