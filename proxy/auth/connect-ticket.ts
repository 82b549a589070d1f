// Connect tickets. CDP discovery (GET /json/version) answers with a webSocketDebuggerUrl that the
// client opens as it is: Playwright's connectOverCDP('http://…?token=…') does not carry the http
// address's query over to it. So that URL must authenticate on its own, without echoing the router
// key: it carries `ticket=`, 32 random bytes (stored as SHA-256, like the key) that stand for the
// key for one connect within TICKET_TTL_MS. Redeeming deletes the row, so a ticket works once on
// every proxy sharing the database; a ticket of a key revoked since fails with the key.
import { newSecret } from '../../lib/crypto/secrets';
import { db } from '../../lib/db';
import { IDENTITY_COLUMNS, identityJoins, identityOf, type KeyRow, type RouterKeyIdentity } from './router-key';

export const TICKET_PREFIX = 'ctkt_';
/** Playwright and puppeteer connect right after reading /json/version; half a minute is plenty. */
export const TICKET_TTL_MS = 30_000;
/** The query parameter that carries a ticket; it is accepted on GET /v1/connect only. */
export const TICKET_PARAM = 'ticket';

export function isWellFormedTicket(plaintext: string | null): plaintext is string {
  return plaintext !== null && /^ctkt_[A-Za-z0-9_-]{43}$/.test(plaintext);
}

/** A new ticket for the key; expired tickets nobody redeemed are swept a few at a time here. */
export async function issueConnectTicket(keyId: string): Promise<string> {
  const secret = newSecret(TICKET_PREFIX);
  await db.$executeRaw`
    WITH expired AS (
      DELETE FROM "ConnectTicket" WHERE "ticketHash" IN (
        SELECT "ticketHash" FROM "ConnectTicket" WHERE "expiresAt" < now() LIMIT 100 FOR UPDATE SKIP LOCKED)
    )
    INSERT INTO "ConnectTicket" ("ticketHash", "keyId", "expiresAt")
    VALUES (${secret.hash}, ${keyId}, now() + ${TICKET_TTL_MS}::int * interval '1 millisecond')`;
  return secret.plaintext;
}

/** The identity of the ticket's key, or null when the ticket is unknown, used, expired or its key revoked. */
export async function redeemConnectTicket(ticketHash: string): Promise<RouterKeyIdentity | null> {
  const [key] = await db.$queryRaw<KeyRow[]>`
    WITH t AS (DELETE FROM "ConnectTicket" WHERE "ticketHash" = ${ticketHash} RETURNING "keyId", "expiresAt")
    SELECT ${IDENTITY_COLUMNS} FROM t JOIN "RouterKey" k ON k."id" = t."keyId" ${identityJoins()}
    WHERE t."expiresAt" > now()`;
  return identityOf(key);
}
