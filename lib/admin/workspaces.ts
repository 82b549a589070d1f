// The instance operator's tools over every workspace of the installation (docs/api.md, Operator):
// find workspaces, grant credits, mark a workspace enterprise, suspend it. Only the operator
// (lib/users/instance-admin.ts) may call them, with a dashboard session or their own token: their
// endpoints are declared `operator` (lib/admin/endpoints.ts), and endpoint() checks.
import { notFound } from '../api/errors';
import { centsOf } from '../billing/charges';
import { grantCredits } from '../billing/grants';
import { db, Prisma } from '../db';
import { log } from '../log';
import { dailyCap } from '../rate-limit/daily-cap';
import { notifyAccessRevoked } from '../sessions/notify';
import { recordOperatorAction, type Actor, type OperatorActionKind } from './actions';
import { accountState } from '../workspaces/serialize';
import type { FindWorkspacesQuery, UpdateWorkspaceInput } from './schemas';
import type { z } from 'zod';
import type { adminWorkspace as adminWorkspaceAnswer } from '../openapi/resources/accounts';

const workspaceSelect = {
  id: true,
  slug: true,
  name: true,
  plan: true,
  enterprise: true,
  suspended: true,
  dailyCapOverride: true,
  deletionRequestedAt: true,
  createdAt: true,
  wallet: { select: { balanceMillicents: true } },
  memberships: { where: { role: 'owner' }, take: 1, select: { user: { select: { id: true, email: true, name: true } } } },
  _count: { select: { memberships: true } },
} satisfies Prisma.WorkspaceSelect;

type WorkspaceRow = Prisma.WorkspaceGetPayload<{ select: typeof workspaceSelect }>;

/** A workspace as the operator sees it: identity, owner, state and wallet. */
export function serializeAdminWorkspace(w: WorkspaceRow): z.input<typeof adminWorkspaceAnswer> {
  const balanceMillicents = w.wallet?.balanceMillicents ?? 0n;
  const owner = w.memberships[0]?.user ?? null;
  return {
    id: w.id,
    slug: w.slug,
    name: w.name,
    owner: owner ? { id: owner.id, email: owner.email, name: owner.name } : null,
    memberCount: w._count.memberships,
    plan: w.plan,
    enterprise: w.enterprise,
    suspended: w.suspended,
    accountState: accountState({ enterprise: w.enterprise, balanceMillicents }),
    balanceUsdCents: centsOf(balanceMillicents),
    balanceMillicents: Number(balanceMillicents),
    dailyCap: dailyCap({ enterprise: w.enterprise, dailyCapOverride: w.dailyCapOverride, balanceMillicents }),
    deletionRequestedAt: w.deletionRequestedAt?.toISOString() ?? null,
    createdAt: w.createdAt.toISOString(),
  };
}

/**
 * Workspaces whose id is `q`, or whose slug, name or owner's e-mail contains it (any case); all
 * of them without `q`. Newest first, paged.
 */
export async function findWorkspaces(query: FindWorkspacesQuery) {
  const q = query.q?.trim();
  const where: Prisma.WorkspaceWhereInput = q
    ? {
        OR: [
          { id: q },
          { slug: { contains: q, mode: 'insensitive' } },
          { name: { contains: q, mode: 'insensitive' } },
          { memberships: { some: { role: 'owner', user: { email: { contains: q.toLowerCase() } } } } },
        ],
      }
    : {};
  const [rows, total] = await Promise.all([
    db.workspace.findMany({
      where,
      select: workspaceSelect,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
    db.workspace.count({ where }),
  ]);
  return { items: rows.map(serializeAdminWorkspace), total, page: query.page, pageSize: query.pageSize };
}

async function adminWorkspace(id: string) {
  const row = await db.workspace.findUnique({ where: { id }, select: workspaceSelect });
  if (!row) throw notFound('workspace');
  return serializeAdminWorkspace(row);
}

export async function grantWorkspaceCredits(workspaceId: string, input: { amountCents: number; note?: string | null }, by: Actor) {
  const grant = await grantCredits(workspaceId, input.amountCents, input.note, by);
  return { grant: { cause: grant.cause, amountCents: grant.amountCents, note: grant.note }, workspace: await adminWorkspace(workspaceId) };
}

/**
 * `enterprise` also sets the plan (`enterprise`, or back to `free`). Suspending closes the
 * workspace's live sessions on every proxy at once (NOTIFY, close code 4004) and refuses its
 * connects and data-API calls with 402 from the next one; lifting it lets them in again. Each
 * change (not a repeat of the current state) goes to the operator's audit log.
 */
export async function updateWorkspace(id: string, input: UpdateWorkspaceInput, by: Actor) {
  const data: Prisma.WorkspaceUpdateInput = {};
  if (input.enterprise !== undefined) Object.assign(data, { enterprise: input.enterprise, plan: input.enterprise ? 'enterprise' : 'free' });
  if (input.suspended !== undefined) data.suspended = input.suspended;
  await db.$transaction(async (tx) => {
    const before = await tx.workspace.findUnique({ where: { id }, select: { name: true, enterprise: true, suspended: true, deletionRequestedAt: true } });
    if (!before) throw notFound('workspace');
    await tx.workspace.update({ where: { id }, data });
    if (input.suspended === true && !before.suspended) await notifyAccessRevoked(tx, { cause: 'workspace_suspended', workspaceIds: [id] });
    // A workspace still marked for deletion stays refused: only its undelete lifts that mark.
    if (input.suspended === false && before.suspended && !before.deletionRequestedAt)
      await notifyAccessRevoked(tx, { cause: 'workspaces_restored', workspaceIds: [id] });
    const changes: OperatorActionKind[] = [];
    if (input.suspended !== undefined && input.suspended !== before.suspended) changes.push(input.suspended ? 'workspace_suspended' : 'workspace_unsuspended');
    if (input.enterprise !== undefined && input.enterprise !== before.enterprise)
      changes.push(input.enterprise ? 'workspace_enterprise' : 'workspace_not_enterprise');
    for (const action of changes) await recordOperatorAction(tx, { actor: by, action, workspaceId: id, targetLabel: before.name });
  });
  log.info({ event: 'workspace-updated-by-operator', workspaceId: id, byUserId: by?.id ?? null, ...input }, 'operator changed a workspace');
  return adminWorkspace(id);
}
