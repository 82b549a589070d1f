// The wallet as a workspace reads it: GET /v1/billing/summary and GET /v1/credits/balance
// (docs/api.md, Billing). Any member may read them.
import { db } from '../db';
import { dailyCap } from '../rate-limit/daily-cap';
import { accountState } from '../workspaces/serialize';
import { centsOf } from './charges';
import { feeTable } from './fees';
import { periodBounds, usagePeriod } from './period';
import { FREE_SESSIONS_PER_MONTH, publicRates, TOPUP_MAX_CENTS, TOPUP_MIN_CENTS } from './rates';

export interface BillingWorkspace {
  id: string;
  plan: string;
  enterprise: boolean;
  suspended: boolean;
  dailyCapOverride: number | null;
}

async function walletOf(workspaceId: string) {
  const wallet = await db.wallet.findUnique({ where: { workspaceId }, select: { balanceMillicents: true, updatedAt: true } });
  if (wallet) return wallet;
  // Workspaces are born with a wallet; one made before the wallet existed reads as empty.
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { createdAt: true } });
  return { balanceMillicents: 0n, updatedAt: workspace.createdAt };
}

export async function billingSummary(workspace: BillingWorkspace, now = new Date()) {
  const month = periodBounds(now);
  const [wallet, usage] = await Promise.all([
    walletOf(workspace.id),
    db.usageCounter.findUnique({ where: { workspaceId_period: { workspaceId: workspace.id, period: usagePeriod(now) } }, select: { sessions: true } }),
  ]);
  const usedCount = usage?.sessions ?? 0;
  const fees = feeTable();
  return {
    accountState: accountState({ enterprise: workspace.enterprise, balanceMillicents: wallet.balanceMillicents }),
    plan: workspace.plan,
    suspended: workspace.suspended,
    period: { startedAt: month.startedAt.toISOString(), endsAt: month.endsAt.toISOString() },
    sessions: {
      usedCount,
      includedCount: FREE_SESSIONS_PER_MONTH,
      usedPct: usedCount / FREE_SESSIONS_PER_MONTH,
      overageRateCents: publicRates.overageRateCents,
    },
    wallet: {
      balanceUsdCents: centsOf(wallet.balanceMillicents),
      balanceMillicents: Number(wallet.balanceMillicents),
      minTopupCents: TOPUP_MIN_CENTS,
      maxTopupCents: TOPUP_MAX_CENTS,
      cardFeePercent: fees.card.percent,
      cardFeeBasisPoints: fees.card.basisPoints,
      cardFeeFixedCents: fees.card.fixedCents,
      cryptoFeePercent: fees.crypto.percent,
      cryptoFeeBasisPoints: fees.crypto.basisPoints,
      cryptoFeeFixedCents: fees.crypto.fixedCents,
      updatedAt: wallet.updatedAt.toISOString(),
    },
    rates: {
      recordingPerMinuteCents: publicRates.recordingPerMinuteCents,
      observabilityPer1kEventsCents: publicRates.observabilityPer1kEventsCents,
    },
    dailyCap: dailyCap({ enterprise: workspace.enterprise, dailyCapOverride: workspace.dailyCapOverride, balanceMillicents: wallet.balanceMillicents }),
  };
}

export async function creditBalance(workspaceId: string) {
  const wallet = await walletOf(workspaceId);
  return {
    workspaceId,
    balanceUsdCents: centsOf(wallet.balanceMillicents),
    balanceMillicents: Number(wallet.balanceMillicents),
    updatedAt: wallet.updatedAt.toISOString(),
  };
}
