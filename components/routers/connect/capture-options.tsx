'use client';
// The captures the connect URL can ask for (session_record=, observability=), as options of the
// connect tab: what each one does, what it costs and why a script would be refused for it (an
// empty wallet, the router's switch off), said before the script runs. The parameters and their
// refusals: docs/connect.md.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { useBillingSummary } from '@/lib/client/billing';
import { formatCents } from '@/lib/client/money';
import { Switch } from '../../ui/switch';

/**
 * "Record this session": the session becomes a video on the Recordings page, watchable live while it
 * runs.
 */
export function RecordOption(props: OptionProps) {
  const rate = useBillingSummary().data?.rates.recordingPerMinuteCents;
  return (
    <CaptureOption
      {...props}
      id="connect-record"
      title="Record this session"
      param="session_record=true"
      switchOff="Recording is off for this router"
      turnOn="Turn it on"
    >
      Every tab of the session becomes a video on the{' '}
      <Link href="/recordings" className="font-medium text-accent-600 hover:text-accent-700">
        Recordings
      </Link>{' '}
      page, watchable live while it runs. Billed per minute{rate !== undefined && <> ({formatCents(rate)} a minute, counted by the second)</>} from the{' '}
      <WalletLink label="wallet" />, which needs a positive balance; the router&apos;s Recording switch must be on.
    </CaptureOption>
  );
}

/**
 * "Trace this session": the session's network requests, console output and navigations become a
 * trace on the Traces page. Like recording, it needs a positive wallet and the router's switch on.
 */
export function TraceOption(props: OptionProps) {
  const rate = useBillingSummary().data?.rates.observabilityPer1kEventsCents;
  return (
    <CaptureOption
      {...props}
      id="connect-observability"
      title="Trace this session"
      param="observability=true"
      switchOff="Traces are off for this router"
      turnOn="Turn them on"
    >
      Network requests, console output and navigations of every tab, on the{' '}
      <Link href="/traces" className="font-medium text-accent-600 hover:text-accent-700">
        Traces
      </Link>{' '}
      page. Billed {rate !== undefined ? `${formatCents(rate)} per` : 'per'} 1,000 events from the <WalletLink label="wallet" />, which needs a positive
      balance; the router&apos;s Traces switch must be on.
    </CaptureOption>
  );
}

interface OptionProps {
  on: boolean;
  onChange: (on: boolean) => void;
  /** The router's switch for the capture (undefined while its settings load). */
  switchOn: boolean | undefined;
}

/**
 * A capture the connect URL can ask for. What it needs is said here, before a script is refused for
 * it (402 with an empty wallet, 409 with the router's switch off).
 */
function CaptureOption({
  on,
  onChange,
  switchOn,
  id,
  title,
  param,
  switchOff,
  turnOn,
  children,
}: OptionProps & { id: string; title: string; param: string; switchOff: string; turnOn: string; children: ReactNode }) {
  const summary = useBillingSummary().data;
  const empty = summary ? summary.accountState === 'free' : false;
  return (
    <div className="space-y-1">
      <div className="flex items-center justify-between gap-4">
        <label htmlFor={id} className="text-[13px] font-medium text-zinc-700">
          {title} <code className="ml-1 font-mono text-[12px] font-normal text-zinc-400">{param}</code>
        </label>
        <Switch id={id} size="sm" checked={on} onChange={onChange} />
      </div>
      <p className="text-[13px] text-zinc-500">{children}</p>
      {on && empty && (
        <p className="text-[12px] text-amber-700">
          The wallet is empty: {param} is refused with 402 until you <WalletLink label="top it up" />.
        </p>
      )}
      {switchOn === false && (
        <p className="text-[12px] text-amber-700">
          {switchOff}: {param} is refused with 409. {turnOn} in the router&apos;s Settings.
        </p>
      )}
    </div>
  );
}

/** The wallet these features draw from: the Billing page. */
function WalletLink({ label = 'wallet balance' }: { label?: string }) {
  return (
    <Link href="/billing" className="font-medium text-accent-600 hover:text-accent-700">
      {label}
    </Link>
  );
}
