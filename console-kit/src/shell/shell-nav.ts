import type { SessionUser, SystemStatus } from '../api/api-types';
import { UserRole } from '../api/api-types';

/** Icon names the shell knows how to draw (shell-icons.tsx). */
export type NavIcon =
  | 'playground'
  | 'chat'
  | 'dashboard'
  | 'token'
  | 'log'
  | 'drawing'
  | 'task'
  | 'channel'
  | 'redemption'
  | 'user'
  | 'setting'
  | 'wallet'
  | 'personal';

export interface NavItem {
  /** Key in the common namespace (`nav.*`), or a literal label for chat links. */
  labelKey?: string;
  label?: string;
  to: string;
  icon: NavIcon;
}

export interface NavGroup {
  id: 'playground' | 'chat' | 'console' | 'admin' | 'personal';
  /** Heading key shown above the group when the sidebar is expanded; none for the playground. */
  titleKey?: string;
  items: NavItem[];
}

export function isAdmin(user: Pick<SessionUser, 'role'> | null | undefined): boolean {
  return (user?.role ?? 0) >= UserRole.admin;
}

export function isRoot(user: Pick<SessionUser, 'role'> | null | undefined): boolean {
  return (user?.role ?? 0) >= UserRole.root;
}

/** Names of the configured chat links (each `chats` entry maps one name to one URL). */
export function chatNames(status: Pick<SystemStatus, 'chats'> | null | undefined): string[] {
  const chats = Array.isArray(status?.chats) ? status.chats : [];
  return chats.map((entry, index) => {
    const name = entry && typeof entry === 'object' ? Object.keys(entry)[0] : undefined;
    return name || `Chat ${index + 1}`;
  });
}

/**
 * The sidebar (docs/decisions.md#sidebar): playground; chat links; the console group (dashboard only with data
 * export, drawing logs only with drawing, task logs only with tasks); the admin group for admins only;
 * the personal group. Empty groups are left out.
 */
export function buildSidebarGroups(
  status: SystemStatus | null | undefined,
  user: Pick<SessionUser, 'role'> | null | undefined,
): NavGroup[] {
  const groups: NavGroup[] = [
    { id: 'playground', items: [{ labelKey: 'nav.playground', to: '/playground', icon: 'playground' }] },
    {
      id: 'chat',
      titleKey: 'nav.chat',
      items: chatNames(status).map((label, index) => ({ label, to: `/chat/${index}`, icon: 'chat' })),
    },
    {
      id: 'console',
      titleKey: 'nav.consoleGroup',
      items: [
        ...(status?.enable_data_export
          ? [{ labelKey: 'nav.dashboard', to: '/detail', icon: 'dashboard' as const }]
          : []),
        { labelKey: 'nav.tokens', to: '/token', icon: 'token' },
        { labelKey: 'nav.logs', to: '/log', icon: 'log' },
        { labelKey: 'nav.reports', to: '/report', icon: 'dashboard' },
        ...(status?.enable_drawing
          ? [{ labelKey: 'nav.drawingLogs', to: '/midjourney', icon: 'drawing' as const }]
          : []),
        ...(status?.enable_task ? [{ labelKey: 'nav.taskLogs', to: '/task', icon: 'task' as const }] : []),
      ],
    },
    {
      id: 'admin',
      titleKey: 'nav.adminGroup',
      items: isAdmin(user)
        ? [
            { labelKey: 'nav.channels', to: '/channel', icon: 'channel' },
            { labelKey: 'nav.redemptions', to: '/redemption', icon: 'redemption' },
            { labelKey: 'nav.users', to: '/user', icon: 'user' },
            { labelKey: 'nav.settings', to: '/setting', icon: 'setting' },
            { labelKey: 'nav.audit', to: '/audit', icon: 'log' },
          ]
        : [],
    },
    {
      id: 'personal',
      titleKey: 'nav.personalGroup',
      items: [
        { labelKey: 'nav.wallet', to: '/topup', icon: 'wallet' },
        { labelKey: 'nav.personal', to: '/personal', icon: 'personal' },
      ],
    },
  ];
  return groups.filter((group) => group.items.length > 0);
}

/** docs/decisions.md#home-notice-footer: the top bar's "Console" opens the dashboard when data export is on, else the tokens. */
export function consoleHomePath(status: Pick<SystemStatus, 'enable_data_export'> | null | undefined): string {
  return status?.enable_data_export ? '/detail' : '/token';
}

export interface TopNavLink {
  labelKey: string;
  to: string;
  external?: boolean;
}

/** Home, Console, Pricing, Docs (only when a docs link is configured, opens outside), About. */
export function buildTopNavLinks(status: SystemStatus | null | undefined): TopNavLink[] {
  const docs = typeof status?.docs_link === 'string' ? status.docs_link.trim() : '';
  return [
    { labelKey: 'nav.home', to: '/' },
    { labelKey: 'nav.console', to: consoleHomePath(status) },
    { labelKey: 'nav.pricing', to: '/pricing' },
    ...(/^https?:\/\//i.test(docs) ? [{ labelKey: 'nav.docs', to: docs, external: true }] : []),
    { labelKey: 'nav.about', to: '/about' },
  ];
}

/** Spec: the New Year fireworks item shows on 1 January (the visitor's local date). */
export function isNewYearsDay(date: Date): boolean {
  return date.getMonth() === 0 && date.getDate() === 1;
}

/** docs/decisions.md#sidebar: 60 px collapsed, 200 px expanded. */
export const SIDEBAR_WIDTH_COLLAPSED = 60;
export const SIDEBAR_WIDTH_EXPANDED = 200;
/** docs/decisions.md#sidebar: mobile is a width of 600 px or less. */
export const MOBILE_MEDIA_QUERY = '(max-width:600px)';
