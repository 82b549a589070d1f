'use client';
// The test mode's stand-in for a processor's hosted checkout page: no card, no money. The
// instance operator confirms the payment (which credits the wallet through the same webhook path
// as Stripe) or cancels it; anyone else of the workspace sees that the operator must confirm.
import { useRouter } from 'next/navigation';
import { errorMessage } from '@/lib/client/api-fetch';
import { formatCents } from '@/lib/client/money';
import { useTestCheckout, useTestCheckoutAction } from '@/lib/client/test-checkout';
import { Alert, ErrorAlert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button, ButtonLink } from '../ui/button';
import { Card, CardFooter, CardHeader, DescriptionList } from '../ui/card';
import { PageHeader } from '../ui/page-header';
import { Skeleton } from '../ui/skeleton';
import { Time } from '../ui/time';

export function TestCheckoutView({ id }: { id: string }) {
  const checkout = useTestCheckout(id);
  const confirm = useTestCheckoutAction(id, 'confirm');
  const cancel = useTestCheckoutAction(id, 'cancel');
  const router = useRouter();
  const go = (result: { redirectTo: string }) => router.push(result.redirectTo);

  if (checkout.isPending) {
    return (
      <>
        <TestModeHeader />
        <CheckoutSkeleton />
      </>
    );
  }
  if (checkout.error) {
    return (
      <>
        <TestModeHeader />
        <Alert tone="danger" title="This test checkout cannot be shown">
          {errorMessage(checkout.error)}
        </Alert>
      </>
    );
  }
  return (
    <>
      <TestModeHeader />
      <CheckoutCard checkout={checkout.data} confirm={confirm} cancel={cancel} onDone={go} />
    </>
  );
}

/** The page's header, the same in every state: this is test mode, and why. */
function TestModeHeader() {
  return (
    <PageHeader
      eyebrow={
        <Badge tone="warning" dot>
          TEST MODE
        </Badge>
      }
      title="Test checkout"
      description="This installation has no payment processor configured (STRIPE_SECRET_KEY), so top-ups run in test mode: no card is asked for and no real money moves."
    />
  );
}

/** The checkout's card while it loads. */
function CheckoutSkeleton() {
  return (
    <Card>
      <div className="space-y-3 p-5">
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="h-4 w-2/5" />
      </div>
    </Card>
  );
}

/** The checkout: what it is for, its status and amounts, then the footer's actions. */
function CheckoutCard({ checkout: c, confirm, cancel, onDone }: CheckoutProps) {
  return (
    <Card className="max-w-2xl">
      <CardHeader
        title={`Top-up of ${formatCents(c.creditCents)} for ${c.workspaceName}`}
        description={
          <>
            Started <Time value={c.createdAt} relative />
          </>
        }
        actions={<Badge tone={c.status === 'paid' ? 'success' : c.status === 'pending' ? 'accent' : 'neutral'}>{c.status}</Badge>}
      />
      <DescriptionList
        items={[
          { label: 'Amount charged', value: <span className="font-medium">{formatCents(c.chargeCents)}</span> },
          { label: 'Wallet credit', value: formatCents(c.creditCents) },
          { label: 'Card fee', value: formatCents(c.feeCents) },
          { label: 'Payment', value: 'TEST MODE: nothing is charged' },
        ]}
      />
      <CheckoutFooter checkout={c} confirm={confirm} cancel={cancel} onDone={onDone} />
    </Card>
  );
}

/** A loaded checkout, its two actions, and where to go when either succeeds. */
interface CheckoutProps {
  checkout: NonNullable<ReturnType<typeof useTestCheckout>['data']>;
  confirm: ReturnType<typeof useTestCheckoutAction>;
  cancel: ReturnType<typeof useTestCheckoutAction>;
  onDone: (result: { redirectTo: string }) => void;
}

/** Who may do what with this checkout now, and the buttons that do it. */
function CheckoutFooter({ checkout: c, confirm, cancel, onDone }: CheckoutProps) {
  return (
    <CardFooter className="flex-col items-stretch gap-3">
      {!c.testMode && (
        <Alert tone="warning">Test mode is off: this installation now takes payments through Stripe, so this test checkout can no longer be confirmed.</Alert>
      )}
      {c.testMode && c.status === 'pending' && !c.operator && (
        <Alert tone="info" title="The operator of this installation must confirm this payment">
          In test mode only the instance operator can mark a top-up as paid. Ask them to open this page and confirm it.
        </Alert>
      )}
      {c.status !== 'pending' && (
        <Alert tone={c.status === 'paid' ? 'success' : 'info'}>
          {c.status === 'paid'
            ? `This test payment is confirmed: the wallet of ${c.workspaceName} was credited ${formatCents(c.creditCents)}.`
            : `This checkout is ${c.status.replace(/_/g, ' ')}.`}
        </Alert>
      )}
      <ErrorAlert error={confirm.error ?? cancel.error} />
      <div className="flex justify-end gap-2">
        {c.canCancel ? (
          <Button variant="secondary" loading={cancel.isPending} disabled={confirm.isPending} onClick={() => cancel.mutate(undefined, { onSuccess: onDone })}>
            Cancel
          </Button>
        ) : (
          <ButtonLink href={c.operator ? '/operator/workspaces' : '/billing'} variant="secondary">
            {c.operator ? 'Back to the workspaces' : 'Back to Billing'}
          </ButtonLink>
        )}
        {c.canConfirm && (
          <Button variant="primary" loading={confirm.isPending} disabled={cancel.isPending} onClick={() => confirm.mutate(undefined, { onSuccess: onDone })}>
            Confirm test payment
          </Button>
        )}
      </div>
    </CardFooter>
  );
}
