// Every area of the product, in sidebar order. An area with `coming: true` shows a "coming" badge
// and its page renders <ComingSoon area="…" />; building the area means writing its page and
// removing the flag here.
import type { ComponentType, SVGProps } from 'react';
import {
  ActivityIcon,
  BookIcon,
  BuildingIcon,
  CreditCardIcon,
  HomeIcon,
  InboxIcon,
  KeyIcon,
  RouteIcon,
  SearchCodeIcon,
  UserCircleIcon,
  UsersIcon,
  VideoIcon,
  WebhookIcon,
} from '../ui/icons';

export interface NavItem {
  key: string;
  href: string;
  label: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  description: string;
  coming?: boolean;
  /** Shows the workspace's content: without an active workspace the shell offers to create one. */
  needsWorkspace?: boolean;
}

export interface NavSection {
  label?: string;
  items: NavItem[];
}

export const navSections: NavSection[] = [
  {
    items: [{ key: 'overview', href: '/overview', label: 'Overview', icon: HomeIcon, description: 'Your workspace at a glance.', needsWorkspace: true }],
  },
  {
    label: 'Routing',
    items: [
      {
        key: 'routers',
        href: '/routers',
        label: 'Routers',
        icon: RouteIcon,
        needsWorkspace: true,
        description: 'One WebSocket address in front of your browser providers, with a routing strategy, failover and router keys.',
      },
      {
        key: 'sessions',
        href: '/sessions',
        label: 'Sessions',
        icon: ActivityIcon,
        needsWorkspace: true,
        description: 'Every browser session that went through your routers: provider, duration, bytes and cost.',
      },
      {
        key: 'profiles',
        href: '/profiles',
        label: 'Profiles',
        icon: UserCircleIcon,
        needsWorkspace: true,
        description: 'Saved browser state (cookies, storage) that sessions can load and save.',
      },
      {
        key: 'recordings',
        href: '/recordings',
        label: 'Recordings',
        icon: VideoIcon,
        needsWorkspace: true,
        description: 'Video recordings of sessions: play them, watch running ones live, download MP4s.',
      },
      {
        key: 'traces',
        href: '/traces',
        label: 'Traces',
        icon: SearchCodeIcon,
        needsWorkspace: true,
        description: 'What traced sessions did: network requests, console output and navigations, kept 60 days.',
      },
      {
        key: 'webhooks',
        href: '/webhooks',
        label: 'Webhooks',
        icon: WebhookIcon,
        needsWorkspace: true,
        description: 'Notify your systems when sessions end or fail.',
      },
    ],
  },
  {
    label: 'Workspace',
    items: [
      {
        key: 'billing',
        href: '/billing',
        label: 'Billing',
        icon: CreditCardIcon,
        needsWorkspace: true,
        description: 'Your prepaid wallet, top-ups, usage and receipts.',
      },
      {
        key: 'members',
        href: '/members',
        label: 'Members',
        icon: UsersIcon,
        needsWorkspace: true,
        description: 'People in this workspace, invitations and workspace settings.',
      },
    ],
  },
  {
    label: 'Personal',
    items: [
      { key: 'account', href: '/account', label: 'Account', icon: KeyIcon, description: 'Your profile, access tokens and account settings.' },
      // Everyone's: without SMTP, a user reads their own verification mail here.
      {
        key: 'outbox',
        href: '/outbox',
        label: 'Outbox',
        icon: InboxIcon,
        description: 'Mail to you, and invitations you sent, that this installation kept instead of sending.',
      },
    ],
  },
  {
    label: 'Developers',
    // A public page outside the dashboard's frame (app/docs/api), rendered from GET /v1/openapi.json's document.
    items: [
      {
        key: 'api-reference',
        href: '/docs/api',
        label: 'API reference',
        icon: BookIcon,
        description: 'Every endpoint of the API and the proxy, searchable, with curl examples.',
      },
    ],
  },
];

/** Shown only to the instance operator (`isAdmin` in /v1/me). */
export const operatorSection: NavSection = {
  label: 'Operator',
  items: [
    {
      key: 'operator-workspaces',
      href: '/operator/workspaces',
      label: 'Workspaces',
      icon: BuildingIcon,
      description: 'Every workspace of this installation: credits, enterprise and suspension.',
    },
  ],
};

export function findNavItem(pathname: string): NavItem | undefined {
  return [...navSections, operatorSection].flatMap((s) => s.items).find((item) => pathname === item.href || pathname.startsWith(`${item.href}/`));
}
