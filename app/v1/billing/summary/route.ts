import { endpoint } from '@/lib/api/endpoint';
import { billingSummary } from '@/lib/billing/summary';
import { billingOps } from '@/lib/openapi/operations/billing';

// GET /v1/billing/summary — account state, this month's sessions, wallet, fees and rates; any member
export const GET = endpoint(billingOps.getBillingSummary, (ctx) => billingSummary(ctx.workspace));
