import { endpoint } from '@/lib/api/endpoint';
import { deleteChatLink, getChatLink } from '@/lib/keys/chat-links';
import { routerOps } from '@/lib/openapi/operations/routers';

// GET /v1/mcp-links/current — owner/admin (it returns a credential); the link or null
export const GET = endpoint(routerOps.getChatLink, (ctx) => getChatLink(ctx.router.id));

// DELETE /v1/mcp-links/current — owner/admin; removes the link
export const DELETE = endpoint(routerOps.deleteChatLink, (ctx) => deleteChatLink(ctx.router.id));
