// Building blocks of the answers' schemas: timestamps, counts, lists, and naming a schema as a
// component of the document with its example (typed, so an example that drifts from its schema
// does not compile).
import { z } from 'zod';

/** ISO 8601 in UTC with milliseconds (docs/api.md, Conventions). */
export const timestamp = z.string().meta({ format: 'date-time' });
export const count = z.int().min(0);
/** Unix milliseconds. */
export const unixMs = z.int().min(0);
export const role = z.enum(['owner', 'admin', 'member']);
export const accountState = z.enum(['free', 'paid', 'enterprise']);

/** `{ items, total }`: a whole list. */
export const list = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: count });

/** `{ items, total, page, pageSize }`: one page of a list. */
export const paged = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: count, page: z.int().min(1), pageSize: z.int().min(1).max(100) });

/**
 * A stored text narrowed to the values its answer declares (the column is free text; the
 * validation that wrote it allowed only these). An other value is a broken row, not an answer.
 */
export function declaredValue<T extends string>(allowed: readonly T[], value: string, what: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`${what} holds "${value}", which is none of ${allowed.join(', ')}`);
}

/** `{ <field>: id }` answers of deletes and the like. */
export const idOnly = z.object({ id: z.string() });

/** A component of the document, with its description and one example. */
export function named<T extends z.ZodType>(id: string, schema: T, meta: { description?: string; example?: z.input<T> } = {}): T {
  return schema.meta({
    id,
    ...(meta.description ? { description: meta.description } : {}),
    ...(meta.example !== undefined ? { examples: [meta.example] } : {}),
  });
}

/** Example values shared by the examples. */
export const ex = {
  workspaceId: 'cm3kq0w1e0000a8s2b7x4c9d1',
  userId: 'cm3kq0w1e0001a8s2h2k9p0m4',
  routerId: 'cm3kq0w1f0002a8s2q5n1v6z8',
  keyId: 'cm3kq0w1f0003a8s2d3r8t1y7',
  providerId: 'cm3kq0w1g0004a8s2m6c2e5u0',
  sessionId: 'cm3kq3m7h0009a8s2k1w4r2t6',
  recordingId: 'cm3kq3m7j000aa8s2s8f3g5h1',
  traceId: 'cm3kq3m7k000ba8s2w2e9r4t7',
  profileId: 'cm3kq1a2b0005a8s2z9x8c7v6',
  webhookId: 'cm3kq1a2c0006a8s2n5m4b3v2',
  at: '2026-11-24T10:15:00.000Z',
  later: '2026-11-24T10:17:42.512Z',
} as const;
