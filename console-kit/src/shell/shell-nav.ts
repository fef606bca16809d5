import { matchRoutes } from 'react-router';
import type { SessionUser, SystemStatus } from '../api/api-types';
import { UserRole } from '../api/api-types';
import { chatNames } from '../lib/chat-links';
import {
  NAV_SECTIONS,
  type ConsoleFeature,
  type FeatureNavEntry,
  type NavIcon,
  type NavSection,
} from '../lib/console-feature';

export { chatNames };
export type { NavIcon, NavSection };

export interface NavItem {
  /** Key in the common namespace (`nav.*`), or a literal label for chat links. */
  labelKey?: string;
  label?: string;
  to: string;
  icon: NavIcon;
}

export interface NavGroup {
  id: NavSection;
  /** Heading key shown above the group when the sidebar is expanded; none for the playground. */
  titleKey?: string;
  items: NavItem[];
}

const SECTION_TITLES: Record<NavSection, string | undefined> = {
  playground: undefined,
  chat: 'nav.chat',
  console: 'nav.consoleGroup',
  admin: 'nav.adminGroup',
  personal: 'nav.personalGroup',
};

export function isAdmin(user: Pick<SessionUser, 'role'> | null | undefined): boolean {
  return (user?.role ?? 0) >= UserRole.admin;
}

export function isRoot(user: Pick<SessionUser, 'role'> | null | undefined): boolean {
  return (user?.role ?? 0) >= UserRole.root;
}

/** The sidebar items one feature entry gives this user under this status (none when hidden). */
function entryItems(
  entry: FeatureNavEntry,
  status: SystemStatus | null | undefined,
  user: Pick<SessionUser, 'role'> | null | undefined,
): NavItem[] {
  if ('links' in entry) {
    return entry.links(status).map(({ label, to }) => ({ label, to, icon: entry.icon }));
  }
  if ((entry.adminOnly && !isAdmin(user)) || (entry.option && !status?.[entry.option])) {
    return [];
  }
  return [{ labelKey: entry.labelKey, to: entry.to, icon: entry.icon }];
}

/**
 * The sidebar (docs/decisions.md#sidebar), drawn from the sidebar entries of the mounted features: the
 * sections in their fixed order (playground; chat links; the console group, where the dashboard shows
 * only with data export, drawing logs only with drawing and task logs only with tasks; the admin group
 * for admins only; the personal group), entries within a section in the order of the feature list.
 * Empty sections are left out.
 */
export function buildSidebarGroups(
  features: readonly ConsoleFeature[],
  status: SystemStatus | null | undefined,
  user: Pick<SessionUser, 'role'> | null | undefined,
): NavGroup[] {
  const entries = features.flatMap((feature) => feature.sidebar ?? []);
  return NAV_SECTIONS.map((id): NavGroup => {
    const titleKey = SECTION_TITLES[id];
    const items = entries
      .filter((entry) => entry.section === id)
      .flatMap((entry) => entryItems(entry, status, user));
    return titleKey ? { id, titleKey, items } : { id, items };
  }).filter((group) => group.items.length > 0);
}

/**
 * Sidebar items (as this status and user would see them) that no route of the same features serves:
 * an entry whose page was not mounted would lead to the not-found page. Empty when the list is sound.
 */
export function unroutedSidebarItems(
  features: readonly ConsoleFeature[],
  status: SystemStatus | null | undefined,
  user: Pick<SessionUser, 'role'> | null | undefined,
): NavItem[] {
  const routes = features.flatMap((feature) =>
    feature.routes.map((route) => ({ path: route.path === undefined ? '/' : `/${route.path}` })),
  );
  return buildSidebarGroups(features, status, user)
    .flatMap((group) => group.items)
    .filter((item) => !matchRoutes(routes, item.to));
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
