// Live view (docs/recordings.md, "Watching"): which sessions a dashboard user may watch while they
// run. The rule is about the session's own workspace, not the dashboard's active one, because the
// browser's EventSource cannot send X-Workspace-Id: a session of a workspace the user is not in is
// `not_found` like a missing one, a member who is not owner or admin is `forbidden`.
import { ApiError, forbidden, notFound } from '../api/errors';
import { roleAtLeast } from '../api/context';
import { db } from '../db';

export async function findWatchableSession(userId: string, sessionId: string) {
  const membership = await db.membership.findFirst({
    where: { userId, workspace: { sessions: { some: { id: sessionId } } } },
    select: { role: true, workspaceId: true },
  });
  if (!membership) throw notFound('session');
  if (!roleAtLeast(membership.role, 'admin')) throw forbidden('only the workspace owner or an admin can watch a session live');
  const session = await db.sessionLog.findFirst({
    where: { id: sessionId, workspaceId: membership.workspaceId },
    select: { id: true, state: true, proxyInstanceId: true, recording: { select: { id: true } } },
  });
  if (!session) throw notFound('session');
  if (session.state !== 'active') throw new ApiError('conflict', `the session has ended (${session.state}): watch its recording instead`);
  if (!session.recording) throw new ApiError('conflict', 'the session is not recorded: live view shows sessions connected with session_record=true');
  return { id: session.id, recordingId: session.recording.id, proxyInstanceId: session.proxyInstanceId };
}
