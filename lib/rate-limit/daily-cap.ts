// The daily bearer cap of docs/api.md (Limits): per workspace, reset at midnight UTC, following the
// wallet: 5,000 calls at or below zero balance, 100,000 above zero or on enterprise.
import { hitBucket } from './buckets';

const DAY_MS = 86_400_000;
export const FREE_DAILY_CAP = 5_000;
export const PAID_DAILY_CAP = 100_000;

export interface CapInputs {
  enterprise: boolean;
  dailyCapOverride: number | null;
  balanceMillicents: bigint;
}

export function dailyCap(workspace: CapInputs): number {
  if (workspace.dailyCapOverride !== null) return workspace.dailyCapOverride;
  if (workspace.enterprise || workspace.balanceMillicents > 0n) return PAID_DAILY_CAP;
  return FREE_DAILY_CAP;
}

export interface CapResult {
  limit: number;
  remaining: number;
  resetAt: number; // Unix seconds of the next midnight UTC
  exceeded: boolean;
  headers: Record<string, string>;
}

export async function countBearerCall(workspaceId: string, caps: CapInputs, now = Date.now()): Promise<CapResult> {
  const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const count = await hitBucket(`bearer-day:${workspaceId}`, new Date(dayStart));
  const limit = dailyCap(caps);
  const resetAt = (dayStart + DAY_MS) / 1000;
  const exceeded = count > limit;
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, limit - count)),
    'X-RateLimit-Reset': String(resetAt),
  };
  if (exceeded) headers['Retry-After'] = String(Math.max(1, Math.ceil(resetAt - now / 1000)));
  return { limit, remaining: Math.max(0, limit - count), resetAt, exceeded, headers };
}
