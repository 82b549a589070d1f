import { api, created } from '@/lib/api/handler';
import { rotateChatLink } from '@/lib/keys/chat-links';

// POST /v1/mcp-links/rotate — owner/admin; replaces the link, the old one stops at once; 201
export const POST = api({ router: true, role: 'admin' }, async (ctx) => created(await rotateChatLink(ctx.workspace.id, ctx.router.id)));
