// The one table of the dashboard. It owns the three states every list has: loading (skeleton
// rows), empty (an EmptyState the page supplies) and error (the server's message with a retry).
// Pages describe columns; they never write <table> markup themselves.
import type { MouseEvent, ReactNode } from 'react';
import { cn } from './cn';
import { ErrorState } from './empty-state';
import { Skeleton } from './skeleton';

export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Applied to header and cells: widths, alignment (`text-right`), `hidden md:table-cell`. */
  className?: string;
}

export interface DataTableProps<T> {
  /** Accessible name of the table ("Access tokens"). */
  label: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  /** From the query: `isPending` shows the skeleton, `error` (with no rows) the error state. */
  query: { isPending: boolean; error: unknown; refetch: () => unknown };
  empty: ReactNode;
  skeletonRows?: number;
  rowClassName?: (row: T) => string | undefined;
  /**
   * A click anywhere on the row opens it, except on its own links and buttons (and while text is
   * being selected). A mouse-only shortcut: the row must also carry a button or link that opens
   * the same thing, which is what keyboard and screen-reader users reach.
   */
  onRowClick?: (row: T) => void;
}

const OWN_CONTROLS = 'a, button, input, select, textarea, label, summary';

function rowClickHandler<T>(row: T, onRowClick: ((row: T) => void) | undefined) {
  if (!onRowClick) return undefined;
  return (event: MouseEvent<HTMLTableRowElement>) => {
    if ((event.target as Element).closest(OWN_CONTROLS)) return;
    if (window.getSelection()?.toString()) return;
    onRowClick(row);
  };
}

export function DataTable<T>({ label, columns, rows, rowKey, query, empty, skeletonRows = 3, rowClassName, onRowClick }: DataTableProps<T>) {
  if (!rows && query.error) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (rows && rows.length === 0) return <>{empty}</>;
  const loading = !rows && query.isPending;
  return (
    <div className="overflow-x-auto">
      <table aria-label={label} aria-busy={loading || undefined} className="w-full border-collapse text-left text-sm">
        <thead>
          <tr className="border-b border-zinc-200 bg-zinc-50/80">
            {columns.map((column) => (
              <th key={column.key} scope="col" className={cn('px-5 py-2.5 text-xs font-medium text-zinc-500 whitespace-nowrap', column.className)}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {loading
            ? Array.from({ length: skeletonRows }, (_, i) => (
                <tr key={i} data-skeleton="">
                  {columns.map((column, c) => (
                    <td key={column.key} className={cn('px-5 py-3.5', column.className)}>
                      <Skeleton className={cn('h-4', c === 0 ? 'w-32' : 'w-20', column.className?.includes('text-right') && 'ml-auto')} />
                    </td>
                  ))}
                </tr>
              ))
            : rows?.map((row) => (
                <tr
                  key={rowKey(row)}
                  onClick={rowClickHandler(row, onRowClick)}
                  className={cn('transition-colors hover:bg-zinc-50/70', onRowClick && 'cursor-pointer', rowClassName?.(row))}
                >
                  {columns.map((column) => (
                    <td key={column.key} className={cn('px-5 py-3 align-middle text-zinc-700', column.className)}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
    </div>
  );
}
