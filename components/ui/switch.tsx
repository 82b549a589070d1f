'use client';
// An on/off control that acts at once (a router switch, a provider's enabled flag). For a value
// that is saved with a form, a checkbox-like Switch inside the form works the same way.
import { cn } from './cn';
import { Spinner } from './spinner';

export interface SwitchProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Accessible name; visible labels should point at the switch with `id` + <label htmlFor>. */
  label?: string;
  id?: string;
  disabled?: boolean;
  /** A request is saving the new value: shows a spinner and ignores presses. */
  pending?: boolean;
  size?: 'sm' | 'md';
}

export function Switch({ checked, onChange, label, id, disabled, pending, size = 'md' }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      id={id}
      aria-checked={checked}
      aria-label={label}
      aria-busy={pending || undefined}
      disabled={disabled}
      onClick={() => !pending && onChange(!checked)}
      className={cn(
        'relative inline-flex shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50',
        size === 'sm' ? 'h-5 w-9' : 'h-6 w-11',
        checked ? 'bg-accent-600' : 'bg-zinc-300',
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          'flex items-center justify-center rounded-full bg-white shadow-sm ring-1 ring-zinc-900/5 transition-transform',
          size === 'sm' ? 'size-4' : 'size-5',
          checked ? (size === 'sm' ? 'translate-x-[18px]' : 'translate-x-[22px]') : 'translate-x-0.5',
        )}
      >
        {pending && <Spinner className="size-3 text-zinc-400" />}
      </span>
    </button>
  );
}
