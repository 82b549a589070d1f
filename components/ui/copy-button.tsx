'use client';
import { useEffect, useState } from 'react';
import { Button, type ButtonSize, type ButtonVariant } from './button';
import { CheckIcon, CopyIcon } from './icons';

async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  // Plain-HTTP installs on a LAN address have no Clipboard API; the old selection copy still works.
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy failed');
}

/** Copies `value`; shows "Copied" for two seconds (or "Copy failed"). */
export function CopyButton({
  value,
  label = 'Copy',
  variant = 'secondary',
  size = 'sm',
  className,
}: {
  value: string;
  label?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  return (
    <Button
      variant={variant}
      size={size}
      className={className}
      onClick={() =>
        writeClipboard(value).then(
          () => setState('copied'),
          () => setState('failed'),
        )
      }
      aria-live="polite"
    >
      {state === 'copied' ? <CheckIcon className="text-emerald-600" /> : <CopyIcon />}
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
    </Button>
  );
}
