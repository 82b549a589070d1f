// The answers' schemas say what the handlers answer. The serializers of the resources are run on
// rows shaped like the database's and their output checked strictly against what the document
// says the route answers (every field typed, none undocumented). For the answers built inside
// database code, the type check below compares their fields with the schema's: a field added to
// one and not the other does not compile. e2e/api/openapi.test.ts checks real answers too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { z } from 'zod';
import { serializeAdminWorkspace, type grantWorkspaceCredits } from '../admin/workspaces';
import type { billingSummary as summaryOf, creditBalance as balanceOf } from '../billing/summary';
import { serializeTransaction, type getTransaction } from '../billing/transactions';
import type { billingUsage as usageOf, ledgerRows } from '../billing/usage';
import type { startCheckout } from '../billing/checkout';
import type { handleWebhook } from '../billing/webhook';
import { serializeDownload } from '../downloads/read-downloads';
import { serializeInvitation } from '../invitations/serialize';
import type { createInvitation, resendInvitation } from '../invitations/manage-invitations';
import type { acceptInvitation, lookupInvitation } from '../invitations/respond-to-invitation';
import type { getChatLink } from '../keys/chat-links';
import { serializeRouterKey } from '../keys/create-router-key';
import type { currentRouterKeyPlaintext } from '../keys/manage-router-keys';
import { serializeProfile, serializeVersion } from '../profiles/serialize';
import type { getProviderPlaintext } from '../providers/read-providers';
import type { probeUrl } from '../providers/probe-url';
import { serializeProvider } from '../providers/serialize';
import type { verifyKey } from '../providers/verify-key';
import type { getCompleteSummary, getManifest } from '../recordings/read-frames';
import { serializeRecording } from '../recordings/serialize';
import type { createRouter, getAgentSettings, getRouterSettings } from '../routers/manage-routers';
import { serializeRouter } from '../routers/serialize';
import { serializeSession, type closeSession } from '../sessions/sessions';
import { serializeAccessToken } from '../tokens/serialize';
import { serializeTrace } from '../traces/serialize';
import type { requestAccountDeletion } from '../users/delete-account';
import type { getMe } from '../users/get-me';
import type { listDeliveryAttempts } from '../webhooks/delivery-log';
import { serializeWebhook } from '../webhooks/serialize';
import type { sendTestDelivery } from '../webhooks/test-webhook';
import { serializeMember, workspaceRef } from '../workspaces/serialize';
import { buildOpenApiDocument } from './document';
import type { accountDeletion, adminWorkspace, creditGrant, invitationLookup, invitationSent, me } from './resources/accounts';
import type { billingSummary, billingUsage, checkout, creditBalance, ledger, transaction, webhookOutcome } from './resources/billing';
import type { probeResult, providerPlaintext, verifiedKey } from './resources/providers';
import type { agentSettings, chatLink, routerCreated, routerSettings } from './resources/routers';
import type { completeSummary, manifest, sessionClosed } from './resources/sessions';
import type { deliveryList, testDelivery } from './resources/webhooks';
import { documentValidator } from './testing';

// ---------------------------------------------------------------- fields, at compile time

/** Every field of any member of a union (a closed session's two answers). */
type AllKeys<T> = T extends unknown ? keyof T : never;
type Fields<T> = AllKeys<NonNullable<Awaited<T>>>;
type SameFields<Answered, Documented> = [Exclude<Fields<Answered>, Fields<Documented>>, Exclude<Fields<Documented>, Fields<Answered>>] extends [never, never]
  ? true
  : { answeredButUndocumented: Exclude<Fields<Answered>, Fields<Documented>>; documentedButNotAnswered: Exclude<Fields<Documented>, Fields<Answered>> };
/** Compiles only when the two have the same top-level fields. */
const sameFields = <Answered, Documented>(check: SameFields<Answered, Documented>) => check;
type Out<F extends (...args: never[]) => unknown> = ReturnType<F>;
type Doc<S extends z.ZodType> = z.input<S>;

sameFields<Out<typeof getMe>, Doc<typeof me>>(true);
sameFields<Awaited<Out<typeof getMe>>['user'], Doc<typeof me>['user']>(true);
sameFields<Out<typeof lookupInvitation>, Doc<typeof invitationLookup>>(true);
sameFields<Out<typeof acceptInvitation>, { workspace: unknown; accepted: true }>(true);
sameFields<Out<typeof createInvitation>, Doc<typeof invitationSent>>(true);
sameFields<Out<typeof resendInvitation>, Doc<typeof invitationSent>>(true);
sameFields<Out<typeof requestAccountDeletion>, Doc<typeof accountDeletion>>(true);
sameFields<Out<typeof grantWorkspaceCredits>, Doc<typeof creditGrant>>(true);
sameFields<Awaited<Out<typeof grantWorkspaceCredits>>['grant'], Doc<typeof creditGrant>['grant']>(true);
sameFields<Out<typeof serializeAdminWorkspace>, Doc<typeof adminWorkspace>>(true);
sameFields<Out<typeof createRouter>, Doc<typeof routerCreated>>(true);
sameFields<Out<typeof getRouterSettings>, Doc<typeof routerSettings>>(true);
sameFields<Out<typeof getAgentSettings>, Doc<typeof agentSettings>>(true);
sameFields<Out<typeof getChatLink>, Doc<typeof chatLink>>(true);
sameFields<Out<typeof currentRouterKeyPlaintext>, { apiKeyId: string; plaintextKey: string }>(true);
sameFields<Out<typeof getProviderPlaintext>, Doc<typeof providerPlaintext>>(true);
sameFields<Out<typeof probeUrl>, Doc<typeof probeResult>>(true);
sameFields<Out<typeof verifyKey>, Doc<typeof verifiedKey>>(true);
sameFields<Out<typeof closeSession>, Doc<typeof sessionClosed>>(true);
sameFields<Out<typeof getManifest>, Doc<typeof manifest>>(true);
sameFields<Out<typeof getCompleteSummary>, Doc<typeof completeSummary>>(true);
sameFields<Out<typeof listDeliveryAttempts>, Doc<typeof deliveryList>>(true);
sameFields<Awaited<Out<typeof listDeliveryAttempts>>['items'][number], Doc<typeof deliveryList>['items'][number]>(true);
sameFields<Out<typeof sendTestDelivery>, Doc<typeof testDelivery>>(true);
sameFields<Out<typeof summaryOf>, Doc<typeof billingSummary>>(true);
sameFields<Awaited<Out<typeof summaryOf>>['wallet'], Doc<typeof billingSummary>['wallet']>(true);
sameFields<Out<typeof balanceOf>, Doc<typeof creditBalance>>(true);
sameFields<Out<typeof usageOf>, Doc<typeof billingUsage>>(true);
sameFields<Awaited<Out<typeof usageOf>>['series'][number], Doc<typeof billingUsage>['series'][number]>(true);
sameFields<Out<typeof ledgerRows>, Doc<typeof ledger>>(true);
sameFields<Awaited<Out<typeof ledgerRows>>['rows'][number], Doc<typeof ledger>['rows'][number]>(true);
sameFields<Out<typeof getTransaction>, Doc<typeof transaction>>(true);
sameFields<Out<typeof startCheckout>, Doc<typeof checkout>>(true);
sameFields<Out<typeof handleWebhook>, Doc<typeof webhookOutcome>>(true);

// ---------------------------------------------------------------- values, at run time

const doc = buildOpenApiDocument({ web: 'http://web.test', proxy: 'http://proxy.test' });
const validator = documentValidator(doc);
const at = new Date('2026-11-24T10:15:00.000Z');
const later = new Date('2026-11-24T10:17:42.512Z');

/** The serializer's output is what the document says `method path` answers, strictly. */
function answers(method: string, path: string, data: unknown, status = 200) {
  assert.equal(validator.response(method, path, status, { ok: true, data }), null, `${method.toUpperCase()} ${path}`);
}

const routerRow = {
  id: 'r1',
  workspaceId: 'w1',
  slug: 'default',
  name: 'Default router',
  description: null,
  kind: 'route',
  strategy: 'round-robin',
  cooldownDefaultMs: 30_000,
  cooldownFailureThreshold: 0.5,
  cooldownMinRequestVolume: 3,
  connectionTimeoutMs: 15_000,
  sessionIdleTimeoutMs: 300_000,
  queueMaxSize: 50,
  queueTimeoutMs: 30_000,
  healthCheckIntervalMs: 30_000,
  webhooksEnabled: true,
  profilesEnabled: true,
  replayEnabled: true,
  observabilityEnabled: true,
  recordDefault: false,
  observabilityDefault: false,
  defaultProfileId: null,
  saveProfileDefault: false,
  traceRedactNames: ['acct'],
  createdAt: at,
  updatedAt: at,
  _count: { providers: 1, keys: 1 },
};
const keyRow = { id: 'k1', routerId: 'r1', label: 'Default key', prefix: 'rkey_abc', lastUsedAt: null, revokedAt: later, createdAt: at };

test('routers and router keys', () => {
  answers('get', '/v1/routers/{id}', serializeRouter(routerRow as never));
  answers('get', '/v1/routers', { items: [serializeRouter(routerRow as never)], total: 1 });
  answers('post', '/v1/routers', { ...serializeRouter(routerRow as never), apiKey: { ...serializeRouterKey(keyRow), plaintextKey: 'rkey_x' } }, 201);
  answers('get', '/v1/api-keys/{id}', serializeRouterKey(keyRow));
});

test('providers, probed and key-based', () => {
  const row = {
    id: 'p1',
    workspaceId: 'w1',
    routerId: 'r1',
    slug: 'local',
    name: 'Local',
    urlDisplay: 'ws://127.0.0.1:9222/devtools/browser/x',
    adapterKind: null,
    priority: 100,
    weight: 100,
    maxConcurrent: null,
    enabled: true,
    createdAt: at,
    updatedAt: at,
    profile: { slug: 'shop' },
    capabilities: {
      providerKind: 'managed',
      browserCookies: 'supported',
      targetCreate: 'supported',
      targetGetTargets: 'unsupported',
      fetchInterception: 'unknown',
      pageScreencast: 'supported',
      targetCreateLatencyMs: 12,
      advertisedMaxConcurrent: 4,
      probedAt: at.toISOString(),
      probeDurationMs: 300,
      errors: ['targetGetTargets: timed out'],
    },
  };
  answers('get', '/v1/providers/{slug}', serializeProvider(row as never));
  answers('get', '/v1/providers', {
    items: [serializeProvider({ ...row, adapterKind: 'adapter-one', capabilities: null, profile: null } as never)],
    total: 1,
    page: 1,
    pageSize: 25,
  });
});

test('sessions, recordings and traces', () => {
  const session = {
    id: 's1',
    state: 'errored',
    kind: 'agent',
    startedAt: at,
    endedAt: later,
    durationMs: 1000,
    bytesIn: 10n,
    bytesOut: 20n,
    messageCount: 3,
    billedMillicents: 50n,
    errorReason: 'provider closed',
    providerId: null,
    providerSlug: 'gone',
    providerName: 'Gone',
    recording: null,
    trace: { id: 't1' },
    profileId: 'pr1',
  };
  answers('get', '/v1/sessions', { items: [serializeSession(session as never)], total: 1, page: 1, pageSize: 25 });
  answers('get', '/v1/sessions/{id}', serializeSession(session as never));
  const download = { id: 'd1', sessionLogId: 's1', name: 'résumé (1).pdf', sizeBytes: 12n, createdAt: later, blobKey: 'downloads/s1/d1', sourceUrl: null };
  const atProvider = { ...download, id: 'd2', blobKey: null, sourceUrl: 'https://example.com/r.pdf?token=[redacted]' };
  answers('get', '/v1/sessions/{id}/downloads', { items: [serializeDownload(download), serializeDownload(atProvider)], total: 2 });
  const recording = {
    id: 'rec1',
    sessionLogId: 's1',
    routerId: 'r1',
    providerId: null,
    profileId: null,
    startedAt: at,
    endedAt: null,
    durationMs: 0,
    frameCount: 0,
    chunkCount: 0,
    sizeBytes: 0n,
    droppedFrames: 0,
    duplicatesSkipped: 0,
    format: 'jpeg',
    complete: false,
    capStopped: false,
    truncated: null,
    mp4Status: null,
    mp4SizeBytes: 0n,
    mp4ReadyAt: null,
    mp4Error: null,
    title: null,
    pageCount: 0,
  };
  answers('get', '/v1/replays', { count: 1, replays: [serializeRecording(recording as never)] });
  answers('get', '/v1/replays/{id}', {
    ...serializeRecording({ ...recording, truncated: 'byte-cap', mp4Status: 'failed', mp4Error: 'ffmpeg exited 1' } as never),
    orphaned: true,
  });
  const trace = {
    id: 't1',
    sessionLogId: 's1',
    routerId: 'r1',
    providerId: 'p1',
    startedAt: at,
    endedAt: later,
    durationMs: 5,
    eventCount: 1001,
    sizeBytes: 3n,
    droppedEvents: 0,
    complete: true,
    truncated: 'event-cap',
  };
  answers('get', '/v1/inspections', { count: 1, inspections: [serializeTrace(trace as never)] });
  answers('get', '/v1/inspections/{id}', { ...serializeTrace(trace as never), orphaned: false });
});

test('profiles and their versions', () => {
  const profile = {
    id: 'pr1',
    workspaceId: 'w1',
    slug: 'shop',
    name: 'Shop',
    sizeBytes: 12,
    capturedOrigins: ['https://shop.example'],
    lastUsedAt: null,
    createdAt: at,
    updatedAt: at,
    lockSessionId: 's1',
    lockExpiresAt: new Date(Date.now() + 60_000),
    versions: [{ version: 2, cookieCount: 3 }],
  };
  answers('get', '/v1/profiles/{slug}', serializeProfile(profile as never));
  answers('get', '/v1/profiles', { items: [serializeProfile({ ...profile, versions: [] } as never)], total: 1, page: 1, pageSize: 25 });
  const version = { version: 2, sizeBytes: 12, capturedOrigins: [], cookieCount: 3, source: 'session', sessionLogId: 's1', createdAt: at };
  answers('get', '/v1/profiles/{slug}/versions', { items: [serializeVersion(version as never, 2)], total: 1 });
});

test("webhooks, access tokens, invitations, members and the operator's workspaces", () => {
  const webhook = {
    id: 'h1',
    workspaceId: 'w1',
    routerId: null,
    label: 'Ops',
    urlDisplay: 'https://hooks.example/x?token=***',
    events: ['session.error'],
    active: true,
    createdAt: at,
    updatedAt: at,
    lastDeliveredAt: later,
    lastFailureAt: null,
    lastFailureReason: null,
  };
  answers('get', '/v1/webhooks/{id}', serializeWebhook(webhook as never));
  const token = { id: 'a1', label: 'CI', prefix: 'acct_ab', scopes: 'account:full', lastUsedAt: null, revokedAt: null, createdAt: at };
  answers('get', '/v1/access-tokens', { items: [serializeAccessToken(token as never)], total: 1, cap: 10 });
  answers('post', '/v1/access-tokens', { ...serializeAccessToken(token as never), plaintextToken: 'acct_x' }, 201);
  answers('get', '/v1/invitations', {
    items: [serializeInvitation({ id: 'i1', email: 'g@example.com', role: 'member', expiresAt: later, createdAt: at, invitedBy: { name: 'Ada' } })],
    total: 1,
  });
  answers('get', '/v1/workspaces/current/members', {
    items: [serializeMember({ id: 'm1', userId: 'u1', role: 'admin', joinedAt: at, user: { name: 'Ada', email: 'a@example.com', image: null } })],
    total: 1,
  });
  answers('get', '/v1/workspaces', { items: [workspaceRef({ id: 'w1', slug: 'ada', name: 'Ada' }, 'owner')], total: 1 });
  const workspace = {
    id: 'w1',
    slug: 'ada',
    name: 'Ada',
    plan: 'free',
    enterprise: false,
    suspended: true,
    dailyCapOverride: null,
    deletionRequestedAt: null,
    createdAt: at,
    wallet: { balanceMillicents: -1500n },
    memberships: [{ user: { id: 'u1', email: 'a@example.com', name: 'Ada' } }],
    _count: { memberships: 2 },
  };
  answers('get', '/v1/admin/workspaces', {
    items: [serializeAdminWorkspace(workspace as never), serializeAdminWorkspace({ ...workspace, wallet: null, memberships: [] } as never)],
    total: 2,
    page: 1,
    pageSize: 25,
  });
});

test('billing transactions', () => {
  const row = {
    id: 'tx1',
    provider: 'test',
    providerTxnId: null,
    amountUsdCents: 500,
    status: 'pending',
    kind: 'topup',
    receiptUrl: null,
    createdAt: at,
    paidAt: null,
    refundedAt: null,
    creditCents: 500,
    feeCents: 45,
    chargeCents: 545,
    topupId: null,
  };
  answers('get', '/v1/billing/transactions/{providerTxnId}', serializeTransaction(row as never));
  answers('get', '/v1/billing/transactions', {
    items: [serializeTransaction({ ...row, kind: 'refund', status: 'refunded', topupId: 'tx0', refundedAt: later } as never)],
    total: 1,
  });
});
