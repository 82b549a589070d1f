import { api } from '@/lib/api/handler';
import { billingSummary } from '@/lib/billing/summary';

// GET /v1/billing/summary — account state, this month's sessions, wallet, fees and rates; any member
export const GET = api({ errors: 'billing' }, (ctx) => billingSummary(ctx.workspace));
