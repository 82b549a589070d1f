// An amount of money as people read it ($19.96), with the exact figure in its tooltip
// ($19.96432, 1,996,432 millicents): lib/client/money.ts decides both.
import type { HTMLAttributes } from 'react';
import { formatMillicents, millicentsTitle } from '@/lib/client/money';
import { cn } from './cn';

export function Money({ millicents, plus, className, ...props }: { millicents: number; plus?: boolean } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span title={millicentsTitle(millicents)} className={cn('tabular-nums', className)} {...props}>
      {formatMillicents(millicents, { plus })}
    </span>
  );
}
