import { useState, type ReactNode } from 'react';
import { Box, Drawer, useMediaQuery } from '@mui/material';
import { Outlet, useLocation } from 'react-router';
import type { ConsoleFeature } from '../lib/console-feature';
import { NoticeDialog } from '../features/notice/notice-dialog';
import { StepUpHost } from '../features/security/step-up-host';
import { useConsoleStorage } from '../provider/console-context';
import { StorageKeys } from '../provider/console-storage';
import { useSession } from '../provider/use-session';
import { useSystemStatus } from '../provider/use-system-status';
import { ConsoleFooter } from './footer';
import { PageSuspense } from './page-loading';
import { MOBILE_MEDIA_QUERY, SIDEBAR_WIDTH_COLLAPSED, SIDEBAR_WIDTH_EXPANDED } from './shell-nav';
import { SidebarNav } from './sidebar';
import { TOP_BAR_HEIGHT, TopBar } from './top-bar';

function readCollapsed(stored: string | null, statusDefault: boolean | undefined): boolean {
  if (stored === 'true' || stored === 'false') {
    return stored === 'true';
  }
  return statusDefault ?? false;
}

export interface ConsoleLayoutProps {
  /** The mounted features, whose sidebar entries the sidebar shows: the same list the routes come from. */
  features: readonly ConsoleFeature[];
  children?: ReactNode;
  /** Show the site notice dialog on load (default true). */
  notice?: boolean;
}

/**
 * The standalone console's frame: top bar (56 px), the sidebar for signed-in users (60/200 px,
 * remembered; a drawer on screens of 600 px or less), the page and the footer. Portals that mount
 * single panels usually skip it. Use it as a layout route (children come through <Outlet/>).
 */
export function ConsoleLayout({ features, children, notice = true }: ConsoleLayoutProps) {
  const storage = useConsoleStorage();
  const { status } = useSystemStatus();
  const { user } = useSession();
  const { pathname } = useLocation();
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY, { noSsr: true });
  const [mobileOpen, setMobileOpen] = useState(false);
  const [storedChoice, setStoredChoice] = useState(() => storage.getItem(StorageKeys.sidebarCollapsed));
  const collapsed = readCollapsed(storedChoice, status?.default_collapse_sidebar);
  const sidebarWidth = collapsed ? SIDEBAR_WIDTH_COLLAPSED : SIDEBAR_WIDTH_EXPANDED;
  // The home page is a landing page: full width, like the sign-in pages for visitors.
  const showSidebar = Boolean(user) && !mobile && pathname !== '/';

  const toggleCollapsed = () => {
    const next = String(!collapsed);
    storage.setItem(StorageKeys.sidebarCollapsed, next);
    setStoredChoice(next);
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <TopBar mobile={mobile} onOpenMenu={() => setMobileOpen(true)} />
      <Box sx={{ display: 'flex', flexGrow: 1, minHeight: 0 }}>
        {showSidebar && (
          <Box
            component="aside"
            data-testid="sidebar"
            data-collapsed={collapsed}
            sx={{
              width: sidebarWidth,
              flexShrink: 0,
              borderRight: 1,
              borderColor: 'divider',
              position: 'sticky',
              top: TOP_BAR_HEIGHT,
              height: `calc(100vh - ${TOP_BAR_HEIGHT}px)`,
              transition: (theme) =>
                theme.transitions.create('width', { duration: theme.transitions.duration.shorter }),
              bgcolor: 'background.paper',
            }}
          >
            <SidebarNav features={features} collapsed={collapsed} onToggleCollapsed={toggleCollapsed} />
          </Box>
        )}
        {mobile && (
          <Drawer
            open={mobileOpen}
            onClose={() => setMobileOpen(false)}
            slotProps={{ paper: { sx: { width: SIDEBAR_WIDTH_EXPANDED + 40 } } }}
          >
            <SidebarNav
              features={features}
              collapsed={false}
              withPageLinks
              onNavigate={() => setMobileOpen(false)}
            />
          </Drawer>
        )}
        <Box sx={{ display: 'flex', flexDirection: 'column', flexGrow: 1, minWidth: 0 }}>
          <Box component="main" sx={{ flexGrow: 1 }}>
            <PageSuspense resetKey={pathname}>{children ?? <Outlet />}</PageSuspense>
          </Box>
          <ConsoleFooter />
        </Box>
      </Box>
      {notice && <NoticeDialog />}
      <StepUpHost />
    </Box>
  );
}
