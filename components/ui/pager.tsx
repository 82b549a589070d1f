// The footer of a paged list: "21–40 of 95" and Previous/Next.
import { Button } from './button';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';

export function Pager({
  first,
  last,
  total,
  onPrevious,
  onNext,
  previousDisabled,
  rangeTestId,
}: {
  first: number;
  last: number;
  total: number;
  onPrevious: () => void;
  onNext: () => void;
  previousDisabled: boolean;
  rangeTestId?: string;
}) {
  return (
    <div className="flex items-center justify-between gap-4 border-t border-zinc-100 px-5 py-3 text-[13px] text-zinc-500">
      <span data-testid={rangeTestId}>
        {first}–{last} of {total.toLocaleString('en')}
      </span>
      <div className="flex gap-2">
        <Button size="sm" disabled={previousDisabled} onClick={onPrevious}>
          <ChevronLeftIcon />
          Previous
        </Button>
        <Button size="sm" disabled={last >= total} onClick={onNext}>
          Next
          <ChevronRightIcon />
        </Button>
      </div>
    </div>
  );
}
