'use client';
// A profile's captured origins: a count that opens into the list (and names them all on hover).
import { cn } from '../ui/cn';

export function OriginsSummary({ origins, className }: { origins: string[]; className?: string }) {
  if (origins.length === 0) return <span className="text-zinc-400">None</span>;
  const count = `${origins.length} ${origins.length === 1 ? 'origin' : 'origins'}`;
  return (
    <details className={cn('group max-w-72 text-[13px]', className)}>
      <summary title={origins.join('\n')} className="cursor-pointer list-inside text-zinc-700 marker:text-zinc-400 hover:text-zinc-900">
        {count}
      </summary>
      <OriginList origins={origins} className="mt-1 pl-4" />
    </details>
  );
}

export function OriginList({ origins, className }: { origins: string[]; className?: string }) {
  return (
    <ul className={cn('space-y-0.5', className)}>
      {origins.map((origin) => (
        <li key={origin} className="truncate font-mono text-[12px] text-zinc-600" title={origin}>
          {origin}
        </li>
      ))}
    </ul>
  );
}
