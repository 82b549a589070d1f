// Which field of the usage breakdown (GET /v1/billing/usage, docs/api.md) sums each ledger kind:
// the server fills them, the dashboard reads them. No database here, so the browser may import it.
import type { LedgerKind } from '../db/generated/enums';

export const BREAKDOWN_FIELD = {
  session: 'sessionMillicents',
  recording: 'recordingMillicents',
  observability: 'observabilityMillicents',
  byok_overage: 'byokOverageMillicents',
  reseller: 'resellerMillicents',
  topup: 'topupMillicents',
  refund: 'refundMillicents',
  grant: 'grantMillicents',
} as const satisfies Record<LedgerKind, string>;
