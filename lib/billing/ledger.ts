// The wallet's ledger (docs/billing.md): every movement of money is one WalletEntry row, and the
// same SQL statement that appends it moves the wallet's cached balance and the day's LedgerEntry
// aggregate. One statement is atomic, so balance = sum of entries holds at every commit, and a
// `cause` already posted (unique) moves nothing: posting twice is safe. Every workspace has a
// wallet from its creation, and an entry's foreign key is its wallet, so no entry can miss it.
import { db, Prisma, type Tx } from '../db';
import type { LedgerKind } from '../db/generated/enums';

export interface Entry {
  kind: LedgerKind;
  /** Signed: negative for charges and refunds, positive for top-ups and grants. */
  amountMillicents: bigint;
  /** Unique per cause: `session:<id>:<kind>`, `call:<id>`, `topup:<transaction id>`, `refund:<id>`, `grant:<id>`. */
  cause: string;
  sessionLogId?: string | null;
  transactionId?: string | null;
  note?: string | null;
}

export type Client = typeof db | Tx;

/** The UTC day of an instant, as the ledger's `day`. */
export const ledgerDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * CTEs that post `entries` for one workspace: `posted` (the entries written, none for a cause
 * already posted), `posted_wallet` and `posted_ledger`. `gate` names an earlier CTE of the same
 * statement: entries are posted only when it yielded rows (a session end posts only if it ended
 * the row). Use inside `WITH …, ${postingCtes(…)} SELECT …`.
 */
export function postingCtes(workspaceId: string, at: Date, entries: readonly Entry[], gate?: string): Prisma.Sql {
  const rows = entries.map(
    (e) =>
      Prisma.sql`(${e.kind}::"LedgerKind", ${e.amountMillicents}::bigint, ${e.cause}::text, ${e.sessionLogId ?? null}::text, ${e.transactionId ?? null}::text, ${e.note ?? null}::text)`,
  );
  const gated = gate ? Prisma.sql`WHERE EXISTS (SELECT 1 FROM ${Prisma.raw(`"${gate}"`)})` : Prisma.empty;
  const day = ledgerDay(at);
  return Prisma.sql`
    posted AS (
      INSERT INTO "WalletEntry" ("workspaceId", "kind", "amountMillicents", "cause", "sessionLogId", "transactionId", "note", "createdAt")
      SELECT ${workspaceId}, v.kind, v.amount, v.cause, v.session, v.txn, v.note, ${at}
      FROM (VALUES ${Prisma.join(rows)}) AS v(kind, amount, cause, session, txn, note) ${gated}
      ON CONFLICT ("cause") DO NOTHING
      RETURNING "kind", "amountMillicents"
    ),
    posted_wallet AS (
      UPDATE "Wallet" SET "balanceMillicents" = "Wallet"."balanceMillicents" + moved."total", "updatedAt" = ${at}
      FROM (SELECT sum("amountMillicents") AS "total" FROM posted HAVING count(*) > 0) AS moved
      WHERE "Wallet"."workspaceId" = ${workspaceId}
      RETURNING "Wallet"."balanceMillicents"
    ),
    posted_ledger AS (
      INSERT INTO "LedgerEntry" ("workspaceId", "day", "kind", "count", "totalMillicents", "updatedAt")
      SELECT ${workspaceId}, ${day}::date, "kind", count(*), sum("amountMillicents"), ${at} FROM posted GROUP BY "kind"
      ON CONFLICT ("workspaceId", "day", "kind") DO UPDATE SET "count" = "LedgerEntry"."count" + EXCLUDED."count",
        "totalMillicents" = "LedgerEntry"."totalMillicents" + EXCLUDED."totalMillicents", "updatedAt" = EXCLUDED."updatedAt"
      RETURNING 1
    )`;
}

export interface Posted {
  /** Entries written (0 when every cause was already posted). */
  posted: number;
  /** The balance after posting, or null when nothing was posted. */
  balanceMillicents: bigint | null;
}

/** Posts entries for one workspace in one statement; inside `tx` when given, so they commit with what caused them. */
export async function post(client: Client, workspaceId: string, entries: readonly Entry[], at = new Date()): Promise<Posted> {
  if (entries.length === 0) return { posted: 0, balanceMillicents: null };
  const [row] = await client.$queryRaw<{ posted: number; balance: bigint | null }[]>`
    WITH ${postingCtes(workspaceId, at, entries)}
    SELECT (SELECT count(*)::int FROM posted) AS "posted", (SELECT "balanceMillicents" FROM posted_wallet) AS "balance"`;
  return { posted: row?.posted ?? 0, balanceMillicents: row?.balance ?? null };
}

/** The wallet's balance (the cached sum of its entries); 0 for a workspace that never had money. */
export async function balanceOf(client: Client, workspaceId: string): Promise<bigint> {
  const wallet = await client.wallet.findUnique({ where: { workspaceId }, select: { balanceMillicents: true } });
  return wallet?.balanceMillicents ?? 0n;
}
