'use client';
// A compact one-of-few choice (a chart's period or measure): pill buttons in a radio group.
import { cn } from '../ui/cn';

export function Choice<V extends string | number>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: V;
  options: Array<{ value: V; label: string }>;
  onChange: (value: V) => void;
}) {
  return (
    <div role="radiogroup" aria-label={label} className="inline-flex rounded-lg border border-zinc-200 bg-zinc-50 p-0.5">
      {options.map((option) => {
        const selected = option.value === value;
        return (
          <button
            key={String(option.value)}
            type="button"
            role="radio"
            aria-checked={selected}
            onClick={() => onChange(option.value)}
            className={cn(
              'rounded-md px-2.5 py-1 text-[13px] font-medium whitespace-nowrap transition-colors',
              selected ? 'bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200' : 'text-zinc-500 hover:text-zinc-800',
            )}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
