'use client';
// A picker of the workspace's profiles (the router's Connect options and agent defaults). "" is
// none; `other` adds a choice whose value is OTHER_PROFILE, for a slug typed by hand.
import type { SelectHTMLAttributes } from 'react';
import { useProfileChoices } from '@/lib/client/profiles';
import { Select } from '../ui/input';

/** Not a possible slug (slugs are letters, digits, . _ -). */
export const OTHER_PROFILE = '(other)';

export interface ProfileSelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> {
  value: string;
  onChange: (value: string) => void;
  noneLabel?: string;
  /** The label of the "type a slug" choice; without it there is none. */
  other?: string;
  invalid?: boolean;
}

export function ProfileSelect({ value, onChange, noneLabel = 'None', other, ...props }: ProfileSelectProps) {
  const choices = useProfileChoices();
  // A slug the list does not hold (deleted since, or the list still loading) stays shown as chosen.
  const unlisted = value !== '' && value !== OTHER_PROFILE && !choices.data?.some((p) => p.slug === value);
  return (
    <Select value={value} onChange={(e) => onChange(e.target.value)} {...props}>
      <option value="">{noneLabel}</option>
      {choices.data?.map((p) => (
        <option key={p.slug} value={p.slug}>
          {p.name === p.slug ? p.slug : `${p.name} (${p.slug})`}
        </option>
      ))}
      {unlisted && <option value={value}>{value}</option>}
      {other && <option value={OTHER_PROFILE}>{other}</option>}
    </Select>
  );
}
