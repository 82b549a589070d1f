'use client';
// The reference's search: one query for the whole page, typed in the box, and wrappers that hide
// what does not match (hidden, not unmounted: the page is rendered on the server once).
import { createContext, useContext, useEffect, useId, useState, type ReactNode } from 'react';
import { Input } from '../ui/input';
import { SearchCodeIcon } from '../ui/icons';

const QueryContext = createContext<{ query: string; setQuery: (query: string) => void }>({ query: '', setQuery: () => {} });

/** Every word of the query appears in the text (method, path, summary, id, tag). */
export function matches(text: string, query: string): boolean {
  return query
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .every((word) => text.includes(word));
}

export function SearchProvider({ children }: { children: ReactNode }) {
  const [query, setQuery] = useState('');
  return <QueryContext.Provider value={{ query, setQuery }}>{children}</QueryContext.Provider>;
}

/** The search box, with how many operations match; `/` focuses it from anywhere on the page. */
export function SearchBox({ texts }: { texts: string[] }) {
  const { query, setQuery } = useContext(QueryContext);
  const id = useId();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key !== '/' || event.metaKey || event.ctrlKey || target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      event.preventDefault();
      document.getElementById(id)?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [id]);
  const count = query.trim() ? texts.filter((t) => matches(t, query)).length : texts.length;
  return (
    <div role="search" className="flex flex-wrap items-center gap-3">
      <label htmlFor={id} className="sr-only">
        Search operations
      </label>
      <div className="relative min-w-64 flex-1">
        <SearchCodeIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-400" aria-hidden="true" />
        <Input
          id={id}
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Search by path or summary, e.g. POST /v1/routers or screenshot"
          autoComplete="off"
          className="pl-9"
        />
      </div>
      <p className="text-[13px] text-zinc-500" aria-live="polite">
        {query.trim() ? `${count} of ${texts.length} operations match` : `${texts.length} operations`}
      </p>
    </div>
  );
}

/** Its children, hidden when `text` does not match the query. */
export function Filtered({ text, children, as: Tag = 'div', className }: { text: string; children: ReactNode; as?: 'div' | 'li'; className?: string }) {
  const { query } = useContext(QueryContext);
  return (
    <Tag className={className} hidden={!matches(text, query)}>
      {children}
    </Tag>
  );
}

/** A group (a tag's section, its list in the nav), hidden when none of its texts match. */
export function FilteredGroup({ texts, children, className }: { texts: string[]; children: ReactNode; className?: string }) {
  const { query } = useContext(QueryContext);
  return (
    <div className={className} hidden={!texts.some((t) => matches(t, query))}>
      {children}
    </div>
  );
}

/** Shown only when nothing matches. */
export function NoMatch({ texts }: { texts: string[] }) {
  const { query } = useContext(QueryContext);
  if (!query.trim() || texts.some((t) => matches(t, query))) return null;
  return (
    <p className="rounded-xl border border-dashed border-zinc-300 bg-white px-6 py-10 text-center text-sm text-zinc-500">
      No operation matches “{query.trim()}”.
    </p>
  );
}
