import { z } from 'zod';

export const setActiveWorkspaceSchema = z.object({ workspaceId: z.string().min(1).max(64) });
export const createWorkspaceSchema = z.object({ name: z.string().trim().min(1, 'enter a name').max(100) });
export const deleteWorkspaceSchema = z.object({ confirm: z.string({ message: 'type the workspace slug to confirm' }).max(100) });
export const setActiveRouterSchema = z.object({ routerInstanceId: z.string().min(1).max(64) });
