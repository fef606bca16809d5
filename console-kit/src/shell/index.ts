export { ConsoleLayout, type ConsoleLayoutProps } from './console-layout';
export { TopBar, TOP_BAR_HEIGHT, DEFAULT_SYSTEM_NAME, type TopBarProps } from './top-bar';
export { SidebarNav, type SidebarNavProps } from './sidebar';
export { ConsoleFooter, FOOTER_POLL_ATTEMPTS, FOOTER_POLL_INTERVAL_MS } from './footer';
export { Fireworks } from './fireworks';
export { NotFoundPage } from './not-found-page';
export { PageLoading, PageSuspense, type PageSuspenseProps } from './page-loading';
export { RequireAuth, RequireAdmin, LOGIN_PATH } from './route-guards';
export { featureRoutes } from './feature-routes';
export {
  buildSidebarGroups,
  unroutedSidebarItems,
  buildTopNavLinks,
  consoleHomePath,
  chatNames,
  isAdmin,
  isRoot,
  isNewYearsDay,
  SIDEBAR_WIDTH_COLLAPSED,
  SIDEBAR_WIDTH_EXPANDED,
  MOBILE_MEDIA_QUERY,
  type NavGroup,
  type NavItem,
  type NavIcon,
  type NavSection,
  type TopNavLink,
} from './shell-nav';
export {
  NavItemIcon,
  CopyIcon,
  OpenInNewIcon,
  MenuIcon,
  ChevronLeftIcon,
  ChevronRightIcon,
  ExpandMoreIcon,
  ExpandLessIcon,
  GitHubIcon,
} from './shell-icons';
