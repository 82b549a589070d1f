'use client';
import Link from 'next/link';
import type { Me } from '@/lib/client/me';
import { signOutTo } from '@/lib/client/auth';
import { Avatar } from '../ui/avatar';
import { ChevronUpDownIcon, KeyIcon, LogOutIcon } from '../ui/icons';
import { Menu, MenuItem, MenuSeparator } from '../ui/menu';

export function UserMenu({ user }: { user: Me['user'] }) {
  return (
    <Menu
      placement="top-start"
      triggerLabel="Account menu"
      triggerClassName="flex w-full items-center gap-2.5 rounded-lg px-2 py-1.5 text-left transition-colors hover:bg-zinc-100"
      panelClassName="w-56"
      trigger={() => (
        <>
          <Avatar name={user.name} />
          <span className="min-w-0 flex-1">
            <span className="block truncate text-sm font-medium text-zinc-900">{user.name}</span>
            <span className="block truncate text-xs text-zinc-500">{user.email}</span>
          </span>
          <ChevronUpDownIcon className="size-4 shrink-0 text-zinc-400" />
        </>
      )}
    >
      {(close) => (
        <>
          <Link
            href="/account"
            role="menuitem"
            onClick={close}
            className="flex w-full items-center gap-2 rounded-md px-2.5 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900"
          >
            <KeyIcon className="size-4" />
            Account and tokens
          </Link>
          <MenuSeparator />
          <MenuItem onSelect={() => void signOutTo('/sign-in')}>
            <LogOutIcon />
            Sign out
          </MenuItem>
        </>
      )}
    </Menu>
  );
}
