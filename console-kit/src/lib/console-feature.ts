import { lazy, type ComponentType } from 'react';
import type { SystemStatus } from '../api/api-types';

/**
 * One descriptor per feature says where the feature lives in the console: its routes (with the page,
 * loaded on demand unless it belongs to the first screen, and who may open it) and its sidebar
 * entries (section, label, icon and who sees them). The host builds its routes from the list of
 * descriptors it mounts (`featureRoutes` in the shell) and the sidebar draws from the same list, so a
 * screen is declared once.
 */
export interface ConsoleFeature {
  /** The feature's folder and subpath name (`channels`, `drawing-log`). */
  id: string;
  routes: readonly FeatureRoute[];
  /** Entries in the order they appear within their section; none for pages the sidebar does not list. */
  sidebar?: readonly FeatureNavEntry[];
}

/**
 * Who may open a route: anyone; a signed-in user (visitors go to /login); an admin (visitors go to
 * /login, other users see a refusal). The server checks every call regardless.
 */
export type RouteAccess = 'public' | 'signed-in' | 'admin';

export interface FeatureRoute {
  /** The path under the console's root as react-router takes it (`channel/edit/:id`); absent for `/`. */
  path?: string;
  access: RouteAccess;
  /** The page: `lazyPage(...)` for code fetched when first shown, a plain component for the first screen. */
  page?: ComponentType;
  /** Instead of a page: the console path this route forwards to. */
  redirectTo?: string;
}

/** Icon names the shell knows how to draw (shell/shell-icons.tsx). */
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

/** The sidebar's sections, drawn in this order (docs/decisions.md#sidebar). */
export const NAV_SECTIONS = ['playground', 'chat', 'console', 'admin', 'personal'] as const;
export type NavSection = (typeof NAV_SECTIONS)[number];

/** Site switches of `/api/status` that can hide a sidebar entry. */
export type StatusSwitch = {
  [K in keyof SystemStatus]-?: NonNullable<SystemStatus[K]> extends boolean ? K : never;
}[keyof SystemStatus];

/** One sidebar entry with a fixed label. */
export interface FeatureNavLink {
  section: NavSection;
  /** Key in the common namespace (`nav.*`). */
  labelKey: string;
  icon: NavIcon;
  to: string;
  /** Shown to admins only. */
  adminOnly?: boolean;
  /** Shown only while this site switch is on. */
  option?: StatusSwitch;
}

/** Entries made from the site's status, each with a literal label (the configured chat links). */
export interface FeatureNavLinks {
  section: NavSection;
  icon: NavIcon;
  links: (status: SystemStatus | null | undefined) => { label: string; to: string }[];
}

export type FeatureNavEntry = FeatureNavLink | FeatureNavLinks;

/**
 * A page whose code is fetched the first time its route is shown (`React.lazy` over a named export),
 * so the first screen downloads only the shell, home and login. The console layout shows a
 * progress indicator meanwhile; hosts without it wrap their routes in `PageSuspense`.
 */
export function lazyPage<K extends string, M extends Record<K, ComponentType>>(
  load: () => Promise<M>,
  name: K,
): ComponentType {
  return lazy<ComponentType>(async () => ({ default: (await load())[name] }));
}
