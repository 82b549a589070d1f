// The operator's audit log: every grant of credit, suspension, enterprise mark, change of operator
// rights and password reset link made from the shell, written in the transaction of the change itself, newest first on the operator's
// Workspaces page (GET /v1/admin/actions). Rows outlive the workspace they name (the name is kept).
import { db, Prisma } from '../db';
import type { ListActionsQuery } from './schemas';

export type OperatorActionKind =
  | 'credits_granted'
  | 'workspace_suspended'
  | 'workspace_unsuspended'
  | 'workspace_enterprise'
  | 'workspace_not_enterprise'
  | 'operator_claimed'
  | 'operator_granted'
  | 'operator_revoked'
  | 'password_reset_link';

/** Who did it: an operator's account, or the shell (`npm run operator`, `npm run seed`) when null. */
export type Actor = { id: string; email: string } | null;

export interface ActionRecord {
  actor: Actor;
  action: OperatorActionKind;
  workspaceId?: string | null;
  /** The workspace's name or the account's e-mail the action was about. */
  targetLabel?: string | null;
  detail?: Prisma.InputJsonObject;
}

export async function recordOperatorAction(tx: Prisma.TransactionClient, record: ActionRecord): Promise<void> {
  await tx.operatorAction.create({
    data: {
      actorUserId: record.actor?.id ?? null,
      actorEmail: record.actor?.email ?? null,
      action: record.action,
      workspaceId: record.workspaceId ?? null,
      targetLabel: record.targetLabel ?? null,
      detail: record.detail ?? {},
    },
  });
}

export async function listOperatorActions(query: ListActionsQuery) {
  const where: Prisma.OperatorActionWhereInput = query.workspaceId ? { workspaceId: query.workspaceId } : {};
  const [rows, total] = await Promise.all([
    db.operatorAction.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: (query.page - 1) * query.pageSize, take: query.pageSize }),
    db.operatorAction.count({ where }),
  ]);
  const items = rows.map((r) => ({
    id: r.id,
    action: r.action,
    actor: r.actorUserId ? { id: r.actorUserId, email: r.actorEmail } : null,
    workspaceId: r.workspaceId,
    target: r.targetLabel,
    detail: r.detail as Record<string, unknown>,
    createdAt: r.createdAt.toISOString(),
  }));
  return { items, total, page: query.page, pageSize: query.pageSize };
}
