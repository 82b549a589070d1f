import { endpoint } from '@/lib/api/endpoint';
import { created } from '@/lib/api/handler';
import { rotateChatLink } from '@/lib/keys/chat-links';
import { routerKeyEndpoints } from '@/lib/keys/endpoints';

// POST /v1/mcp-links/rotate — owner/admin; replaces the link, the old one stops at once; 201
export const POST = endpoint(routerKeyEndpoints.rotateChatLink, async (ctx) => created(await rotateChatLink(ctx.workspace.id, ctx.router.id)));
