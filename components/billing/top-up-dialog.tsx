'use client';
// Adding money to the wallet: an amount (presets or typed), the quote the processor will charge
// (the card fee is passed on so the wallet gets exactly the amount asked for), then the
// processor's checkout page. The quote is computed here with the server's own formula and fee
// settings (from the summary); the server computes it again at checkout.
import { useId, useState } from 'react';
import { quoteTopup } from '@/lib/billing/fees';
import { useCheckout, type BillingSummary } from '@/lib/client/billing';
import { formatCents, parseDollars } from '@/lib/client/money';
import { ErrorAlert } from '../ui/alert';
import { cn } from '../ui/cn';
import { FormDialog } from '../ui/dialog';
import { Field, Input } from '../ui/input';

const PRESETS = [1_000, 2_000, 5_000, 10_000, 50_000];

export function TopUpDialog({ wallet, onClose }: { wallet: BillingSummary['wallet']; onClose: () => void }) {
  const form = useTopUpForm(wallet);
  return (
    <FormDialog
      open
      onClose={onClose}
      title="Top up the wallet"
      description="Money in the wallet pays for sessions above the free monthly count, recording and traces. It does not expire."
      submitLabel={form.redirecting ? 'Opening checkout…' : 'Continue to payment'}
      pending={form.checkout.isPending || form.redirecting}
      onSubmit={form.submit}
    >
      <PresetAmounts wallet={wallet} cents={form.cents} onPick={form.pick} />
      <AmountField id={form.inputId} text={form.text} error={form.fieldError} hint={`Credited to the wallet in full; ${form.rangeText}.`} onType={form.type} />
      <Quote wallet={wallet} quote={form.quote} />
      <ErrorAlert error={form.checkout.error} />
    </FormDialog>
  );
}

/** The amount typed or picked, its check against the wallet's range, the quote, and the checkout it starts. */
function useTopUpForm(wallet: BillingSummary['wallet']) {
  const [text, setText] = useState('20');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [redirecting, setRedirecting] = useState(false);
  const checkout = useCheckout();
  const inputId = useId();
  const cents = parseDollars(text);
  const inRange = cents !== null && cents >= wallet.minTopupCents && cents <= wallet.maxTopupCents;
  const fees = { percent: wallet.cardFeePercent, basisPoints: wallet.cardFeeBasisPoints, fixedCents: wallet.cardFeeFixedCents };
  const quote = inRange ? quoteTopup(cents, fees) : null;
  const rangeText = `from ${formatCents(wallet.minTopupCents)} to ${formatCents(wallet.maxTopupCents)}`;

  const submit = () => {
    if (cents === null) return setFieldError('Enter an amount in US dollars, like 20 or 20.50');
    if (!inRange) return setFieldError(`A top-up is ${rangeText}`);
    setFieldError(undefined);
    checkout.mutate(cents, {
      onSuccess: ({ checkoutUrl }) => {
        // Off to the processor (or the test-mode page); it sends the payer back to /billing?checkout=….
        setRedirecting(true);
        window.location.assign(checkoutUrl);
      },
    });
  };
  const pick = (preset: number) => {
    setText(String(preset / 100));
    setFieldError(undefined);
  };
  const type = (value: string) => {
    setText(value);
    setFieldError(undefined);
  };
  return { text, fieldError, redirecting, checkout, inputId, cents, quote, rangeText, submit, pick, type };
}

/** The amount in dollars, typed; its error, or the hint with the range. */
function AmountField({
  id,
  text,
  error,
  hint,
  onType,
}: {
  id: string;
  text: string;
  error: string | undefined;
  hint: string;
  onType: (value: string) => void;
}) {
  return (
    <Field label="Amount (USD)" htmlFor={id} error={error} hint={hint}>
      <div className="relative">
        <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-zinc-400">$</span>
        <Input
          id={id}
          inputMode="decimal"
          autoComplete="off"
          value={text}
          invalid={Boolean(error)}
          onChange={(e) => onType(e.target.value)}
          className="pl-7 tabular-nums"
          autoFocus
        />
      </div>
    </Field>
  );
}

/** The preset amounts the wallet's range allows; the one typed is pressed. */
function PresetAmounts({ wallet, cents, onPick }: { wallet: BillingSummary['wallet']; cents: number | null; onPick: (cents: number) => void }) {
  return (
    <div role="group" aria-label="Preset amounts" className="flex flex-wrap gap-2">
      {PRESETS.filter((p) => p >= wallet.minTopupCents && p <= wallet.maxTopupCents).map((preset) => (
        <button
          key={preset}
          type="button"
          aria-pressed={cents === preset}
          onClick={() => onPick(preset)}
          className={cn(
            'rounded-lg border px-3 py-1.5 text-sm font-medium tabular-nums transition-colors',
            cents === preset
              ? 'border-accent-500 bg-accent-50 text-accent-800 ring-1 ring-accent-500'
              : 'border-zinc-200 bg-white text-zinc-700 hover:border-zinc-300 hover:bg-zinc-50',
          )}
        >
          {formatCents(preset).replace('.00', '')}
        </button>
      ))}
    </div>
  );
}

/** What the wallet gets, the card fee passed on, and the total charged. */
function Quote({ wallet, quote }: { wallet: BillingSummary['wallet']; quote: ReturnType<typeof quoteTopup> | null }) {
  return (
    <dl aria-label="Quote" className="divide-y divide-zinc-100 rounded-lg border border-zinc-200 bg-zinc-50/60 text-sm">
      <QuoteRow label="Credit to the wallet" value={quote ? formatCents(quote.creditCents) : '—'} />
      <QuoteRow
        label={`Card fee (${+wallet.cardFeePercent.toFixed(2)} %${wallet.cardFeeBasisPoints ? ` + ${+(wallet.cardFeeBasisPoints / 100).toFixed(2)} %` : ''}${wallet.cardFeeFixedCents ? ` + ${formatCents(wallet.cardFeeFixedCents)}` : ''})`}
        value={quote ? formatCents(quote.feeCents) : '—'}
      />
      <QuoteRow label="Total charged" value={quote ? formatCents(quote.chargeCents) : '—'} strong />
    </dl>
  );
}

function QuoteRow({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className="flex items-center justify-between gap-4 px-3.5 py-2">
      <dt className={strong ? 'font-medium text-zinc-900' : 'text-zinc-500'}>{label}</dt>
      <dd className={cn('tabular-nums', strong ? 'font-semibold text-zinc-900' : 'text-zinc-700')}>{value}</dd>
    </div>
  );
}
