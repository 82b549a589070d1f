import { endpoint } from '@/lib/api/endpoint';
import { billingEndpoints } from '@/lib/billing/endpoints';
import { billingSummary } from '@/lib/billing/summary';

// GET /v1/billing/summary — account state, this month's sessions, wallet, fees and rates; any member
export const GET = endpoint(billingEndpoints.getBillingSummary, (ctx) => billingSummary(ctx.workspace));
