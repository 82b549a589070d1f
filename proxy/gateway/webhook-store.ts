// The gateway's webhooks: those of gateway.yml (read-only here; the file is their source) and
// those added through /v1/webhooks or the dashboard, kept sealed with the encryption key in
// `webhooks.enc` in the data directory (0600) so a restart keeps them and a copied file shows no
// URL. Lists mask every query value and every path segment (lib/webhooks/mask-url.ts).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { WEBHOOK_EVENTS, type GatewayWebhook, type WebhookEvent } from './config';
import { readPrivateFile, writePrivateFile } from '../../lib/fs/private-file';
import { seal, SetupError, unseal } from './secrets';
import { maskUrl as maskWebhookUrl } from '../../lib/webhooks/mask-url';

export const MAX_ADDED_WEBHOOKS = 50;

export interface StoredWebhook {
  id: string;
  url: string;
  /** null: every event. */
  events: WebhookEvent[] | null;
  source: 'config' | 'dashboard';
  createdAt: string | null;
}

/** A URL as the gateway shows it (lists, logs): every query value and every path segment masked, any userinfo too. */
export function maskUrl(raw: string): string {
  try {
    return maskWebhookUrl(raw, { path: true });
  } catch {
    return '[not a URL]';
  }
}

export const newWebhookSchema = z.strictObject({
  url: z
    .string()
    .max(2_000)
    .refine((value) => {
      try {
        return ['http:', 'https:'].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, 'an http:// or https:// URL'),
  events: z
    .array(z.enum(WEBHOOK_EVENTS.filter((e) => e !== 'test') as [WebhookEvent, ...WebhookEvent[]]))
    .min(1)
    .max(10)
    .nullable()
    .optional(),
});

export class WebhookStore {
  private added: StoredWebhook[];
  private readonly file: string;

  constructor(
    private readonly fromConfig: readonly GatewayWebhook[],
    dataDir: string,
    private readonly key: Buffer,
  ) {
    this.file = path.join(dataDir, 'webhooks.enc');
    this.added = this.read();
  }

  all(): StoredWebhook[] {
    const configured = this.fromConfig.map((w, index): StoredWebhook => ({
      id: `config-${index + 1}`,
      url: w.url,
      events: w.events,
      source: 'config',
      createdAt: null,
    }));
    return [...configured, ...this.added];
  }

  get(id: string): StoredWebhook | undefined {
    return this.all().find((w) => w.id === id);
  }

  /** What /v1/webhooks shows: each URL with its secret query values masked. */
  list(): StoredWebhook[] {
    return this.all().map((w) => ({ ...w, url: maskUrl(w.url) }));
  }

  add(input: z.infer<typeof newWebhookSchema>): StoredWebhook {
    if (this.added.length >= MAX_ADDED_WEBHOOKS) throw new RangeError(`at most ${MAX_ADDED_WEBHOOKS} webhooks can be added here; add more in gateway.yml`);
    const webhook: StoredWebhook = {
      id: `wh_${randomBytes(8).toString('hex')}`,
      url: input.url,
      events: input.events ?? null,
      source: 'dashboard',
      createdAt: new Date().toISOString(),
    };
    this.write([...this.added, webhook]);
    return webhook;
  }

  /** false when there is no such webhook added here (a gateway.yml one is not removed). */
  remove(id: string): boolean {
    const left = this.added.filter((w) => w.id !== id);
    if (left.length === this.added.length) return false;
    this.write(left);
    return true;
  }

  private read(): StoredWebhook[] {
    let sealed: Buffer | null;
    try {
      sealed = readPrivateFile(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new SetupError(`${this.file} is a symbolic link; refusing to follow it`);
      throw error;
    }
    if (!sealed) return [];
    try {
      return JSON.parse(unseal(this.key, sealed).toString('utf8')) as StoredWebhook[];
    } catch {
      throw new SetupError(
        `${this.file} cannot be read with this encryption key (GW_ENCRYPTION_KEY or the data directory's encryption.key changed?); restore that key, or delete the file to drop the webhooks added from the dashboard`,
      );
    }
  }

  private write(webhooks: StoredWebhook[]): void {
    writePrivateFile(this.file, seal(this.key, Buffer.from(JSON.stringify(webhooks))));
    this.added = webhooks;
  }
}
