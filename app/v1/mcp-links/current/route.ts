import { endpoint } from '@/lib/api/endpoint';
import { deleteChatLink, getChatLink } from '@/lib/keys/chat-links';
import { routerKeyEndpoints } from '@/lib/keys/endpoints';

// GET /v1/mcp-links/current — owner/admin (it returns a credential); the link or null
export const GET = endpoint(routerKeyEndpoints.getChatLink, (ctx) => getChatLink(ctx.router.id));

// DELETE /v1/mcp-links/current — owner/admin; removes the link
export const DELETE = endpoint(routerKeyEndpoints.deleteChatLink, (ctx) => deleteChatLink(ctx.router.id));
