// GET /api/health — liveness of the web process. It does no work on purpose: the control-plane
// benchmark uses it as the framework's floor.
export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json({ ok: true });
}
