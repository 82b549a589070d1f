import { api } from '@/lib/api/handler';
import { deleteChatLink, getChatLink } from '@/lib/keys/chat-links';

// GET /v1/mcp-links/current — owner/admin (it returns a credential); the link or null
export const GET = api({ router: true, role: 'admin' }, (ctx) => getChatLink(ctx.router.id));

// DELETE /v1/mcp-links/current — owner/admin; removes the link
export const DELETE = api({ router: true, role: 'admin' }, (ctx) => deleteChatLink(ctx.router.id));
