// The wallet's refusals before a session opens (docs/connect.md, Errors: 402). Pure: the proxy
// passes what it read with the router key. Enterprise workspaces are billed by contract and are
// never refused for an empty wallet (docs/billing.md).
import { publicWebUrl } from '../mail/mailer';
import { FREE_SESSIONS_PER_MONTH } from './rates';

export interface WalletState {
  suspended: boolean;
  enterprise: boolean;
  balanceMillicents: bigint;
  /** Connect sessions and successful data-API calls counted this UTC month so far. */
  monthSessions: number;
}

const billingPage = () => `${publicWebUrl()}/billing`;

/** Why a connect is refused with 402, or null. `paidFeatures` names session_record / observability when asked for. */
export function connectPaymentRefusal(wallet: WalletState, paidFeatures: readonly string[]): string | null {
  if (wallet.suspended) return 'the workspace is suspended';
  if (wallet.enterprise || wallet.balanceMillicents > 0n) return null;
  if (paidFeatures.length > 0) {
    return `${paidFeatures.join(' and ')} ${paidFeatures.length > 1 ? 'need' : 'needs'} a positive wallet balance; top up the wallet at ${billingPage()}`;
  }
  if (wallet.monthSessions >= FREE_SESSIONS_PER_MONTH) {
    return `the workspace used its ${FREE_SESSIONS_PER_MONTH.toLocaleString('en-US')} free sessions this month and the wallet is empty; top up at ${billingPage()}`;
  }
  return null;
}
