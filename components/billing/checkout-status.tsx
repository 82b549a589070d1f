'use client';
// Back from the payment processor: `/billing?checkout=<processor id>` (or `=cancelled`). The
// wallet is credited when the processor's webhook confirms the payment, which may come a moment
// after the payer is back, so the payment is polled until it settles.
import { useQueryClient } from '@tanstack/react-query';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { isApiError } from '@/lib/client/api-fetch';
import { useBillingTransaction, useRefreshBilling } from '@/lib/client/billing';
import { queryKeys } from '@/lib/client/query-keys';
import { formatCents } from '@/lib/client/money';
import { refresh } from '@/lib/client/refresh';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';

export function CheckoutStatus({ checkout }: { checkout: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const dismiss = (
    <Button size="sm" variant="ghost" onClick={() => router.replace(pathname)}>
      Dismiss
    </Button>
  );
  if (checkout === 'cancelled' || checkout === 'canceled') {
    return (
      <Alert tone="warning" title="Payment cancelled" action={dismiss} className="mb-6">
        Nothing was charged and the wallet is unchanged.
      </Alert>
    );
  }
  return <PaymentStatus providerTxnId={checkout} dismiss={dismiss} />;
}

function PaymentStatus({ providerTxnId, dismiss }: { providerTxnId: string; dismiss: React.ReactNode }) {
  const txn = useBillingTransaction(providerTxnId);
  const refreshBilling = useRefreshBilling();
  const queryClient = useQueryClient();
  const status = txn.data?.status;

  useEffect(() => {
    // Paid: the balance, ledger, payments and the account state (in /v1/me) have all moved.
    if (status === 'paid') void Promise.all([refreshBilling(), refresh(queryClient, { queryKey: queryKeys.me })]);
    // refreshBilling is a new function each render; the status changing is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status]);

  if (txn.error && !txn.data) {
    return (
      <Alert tone="danger" title="Payment not found" action={dismiss} className="mb-6">
        {isApiError(txn.error, 'not_found')
          ? 'This workspace has no payment with that reference. If you paid in another workspace, switch to it.'
          : txn.error.message}
      </Alert>
    );
  }
  if (!txn.data || !status || status === 'pending') {
    return (
      <Alert tone="info" title="Waiting for the payment to be confirmed" className="mb-6" action={<Spinner />}>
        The wallet is credited as soon as the payment processor confirms the payment; this usually takes a few seconds. You can leave this page: it will not be
        lost.
      </Alert>
    );
  }
  if (status === 'paid' || status === 'refunded' || status === 'partially_refunded') {
    return (
      <Alert tone="success" title="Payment received" action={dismiss} className="mb-6">
        {formatCents(txn.data.creditCents ?? txn.data.amountUsdCents)} was added to the wallet.
        {txn.data.receiptUrl && (
          <>
            {' '}
            <a href={txn.data.receiptUrl} className="font-medium underline underline-offset-2">
              View the receipt
            </a>
            .
          </>
        )}
      </Alert>
    );
  }
  return (
    <Alert tone="danger" title={status === 'expired' ? 'The checkout expired' : 'The payment did not go through'} action={dismiss} className="mb-6">
      Nothing was added to the wallet. You can start a new top-up.
    </Alert>
  );
}
