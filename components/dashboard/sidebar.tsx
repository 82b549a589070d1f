'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { Me } from '@/lib/client/me';
import { cn } from '../ui/cn';
import { LogoMark } from '../ui/icons';
import { navSections, operatorSection, type NavItem } from './nav';
import { UserMenu } from './user-menu';
import { WorkspaceSwitcher } from './workspace-switcher';

function NavLink({ item, active }: { item: NavItem; active: boolean }) {
  const Icon = item.icon;
  return (
    <Link
      href={item.href}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'group flex items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm transition-colors',
        active ? 'bg-zinc-100 font-medium text-zinc-900' : 'text-zinc-600 hover:bg-zinc-100/70 hover:text-zinc-900',
      )}
    >
      <Icon className={cn('size-4 shrink-0', active ? 'text-accent-600' : 'text-zinc-400 group-hover:text-zinc-500')} />
      <span className="flex-1 truncate">{item.label}</span>
      {item.coming && (
        <span className="rounded-full bg-zinc-100 px-1.5 py-px text-[10px] font-medium tracking-wide text-zinc-500 uppercase ring-1 ring-zinc-200 ring-inset">
          coming
        </span>
      )}
    </Link>
  );
}

export function Sidebar({ me }: { me: Me }) {
  const pathname = usePathname();
  const sections = me.isAdmin ? [...navSections, operatorSection] : navSections;
  return (
    <div className="flex h-full flex-col">
      <div className="space-y-4 px-3 pt-4">
        <Link href="/overview" className="flex items-center gap-2 px-1.5 text-[15px] font-semibold tracking-tight text-zinc-900">
          <LogoMark className="size-6" />
          Browser Router
        </Link>
        <WorkspaceSwitcher />
      </div>
      <nav aria-label="Main" className="flex-1 space-y-5 overflow-y-auto px-3 py-5">
        {sections.map((section, i) => (
          <div key={section.label ?? i}>
            {section.label && <div className="mb-1 px-2.5 text-[11px] font-medium tracking-wider text-zinc-400 uppercase">{section.label}</div>}
            <div className="space-y-0.5">
              {section.items.map((item) => (
                <NavLink key={item.key} item={item} active={pathname === item.href || pathname.startsWith(`${item.href}/`)} />
              ))}
            </div>
          </div>
        ))}
      </nav>
      <div className="border-t border-zinc-200 p-3">
        <UserMenu user={me.user} />
      </div>
    </div>
  );
}
