import type { ReactNode } from 'react';
import { Box } from '@mui/material';
import { Outlet } from 'react-router';
import { TopBar } from './top-bar';

/**
 * The standalone console's frame: top bar plus the page. Portals that mount single panels usually skip
 * it. Use it as a layout route (children come through <Outlet/>) or wrap content directly.
 */
export function ConsoleLayout({ children }: { children?: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <TopBar />
      <Box component="main" sx={{ flexGrow: 1 }}>
        {children ?? <Outlet />}
      </Box>
    </Box>
  );
}
