// Words for the wallet's states and ledger kinds, shared by the Billing page, the receipt and the
// operator's panel.
import type { BadgeTone } from '../ui/badge';
import { ledgerKinds, type AccountState, type LedgerKind } from '@/lib/client/billing';

export const accountStates: Record<AccountState, { label: string; tone: BadgeTone; cap: string; note: string }> = {
  free: {
    label: 'Free',
    tone: 'neutral',
    cap: '5,000',
    note: 'No balance in the wallet: the API allows 5,000 calls a day, and recording and traces are off until you top up.',
  },
  paid: {
    label: 'Paid',
    tone: 'success',
    cap: '100,000',
    note: 'The wallet has a balance: 100,000 API calls a day, and recording and traces are drawn from the wallet.',
  },
  enterprise: {
    label: 'Enterprise',
    tone: 'accent',
    cap: '100,000',
    note: 'An enterprise agreement: 100,000 API calls a day whatever the balance. Recording and traces still need a positive balance.',
  },
};

export const ledgerKindLabels: Record<LedgerKind, string> = {
  session: 'Sessions',
  recording: 'Recording',
  observability: 'Traces',
  byok_overage: 'Own-key overage',
  reseller: 'Reseller',
  topup: 'Top-up',
  refund: 'Refund',
  grant: 'Credit grant',
};

/**
 * Kinds that only the installation's own arrangements could post (own-key overage, reselling);
 * nothing posts them for a customer's workspace, so only the instance operator sees them offered.
 */
const operatorOnlyLedgerKinds: ReadonlySet<LedgerKind> = new Set(['byok_overage', 'reseller']);

/** The ledger kinds a viewer is shown: every kind for the instance operator, else the customer's. */
export const visibleLedgerKinds = (isOperator: boolean): LedgerKind[] => ledgerKinds.filter((kind) => isOperator || !operatorOnlyLedgerKinds.has(kind));

export const transactionStatuses: Record<string, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Pending', tone: 'warning' },
  paid: { label: 'Paid', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  expired: { label: 'Expired', tone: 'neutral' },
  refunded: { label: 'Refunded', tone: 'neutral' },
  partially_refunded: { label: 'Partly refunded', tone: 'neutral' },
};

export const statusOf = (status: string) => transactionStatuses[status] ?? { label: status.replace(/_/g, ' '), tone: 'neutral' as const };

export const kindLabel = (kind: string) => (kind === 'topup' ? 'Top-up' : kind === 'refund' ? 'Refund' : kind.replace(/_/g, ' '));
