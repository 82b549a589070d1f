// The document's prose as the page shows it: paragraphs, and `code` spans (all the markup it uses).
import type { ReactNode } from 'react';
import { cn } from '../ui/cn';

export function InlineText({ text }: { text: string }): ReactNode {
  return text.split(/(`[^`]+`)/).map((part, i) =>
    part.startsWith('`') && part.endsWith('`') && part.length > 1 ? (
      <code key={i} className="ref-code">
        {part.slice(1, -1)}
      </code>
    ) : (
      part
    ),
  );
}

export function Prose({ text, className }: { text: string; className?: string }) {
  if (!text) return null;
  return (
    <div className={cn('space-y-2 text-sm leading-relaxed text-zinc-600', className)}>
      {text.split(/\n\n+/).map((paragraph, i) => (
        <p key={i}>
          <InlineText text={paragraph} />
        </p>
      ))}
    </div>
  );
}
