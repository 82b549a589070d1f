// DELETE /v1/inspections/:id (owner/admin): the row, then its folder in blob storage (pages and
// summary). A capture still running finds its row gone at the end and deletes what it wrote since
// (proxy/plugins/trace/index.ts).
import { notFound } from '../api/errors';
import { blobs } from '../blobs';
import { db } from '../db';
import { traceFolder } from './format';
import type { TraceScope } from './read-traces';

export async function deleteTrace(scope: TraceScope, id: string) {
  const where = { id, workspaceId: scope.workspaceId, routerId: scope.routerId };
  const row = await db.trace.findFirst({ where, select: { id: true } });
  if (!row) throw notFound('trace');
  const { count } = await db.trace.deleteMany({ where });
  if (count === 0) throw notFound('trace');
  await blobs().deleteFolder(traceFolder(row.id));
  return { id: row.id };
}
