import type { ReactNode } from 'react';
import { Alert, Box } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../provider/use-session';
import { isAdmin } from './shell-nav';

export const LOGIN_PATH = '/login';

/**
 * Spec: protected pages redirect to /login when no user is stored locally. Use it as a layout route
 * around the protected routes, or wrap one element. The server still checks every call.
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { user } = useSession();
  const location = useLocation();
  if (!user) {
    return <Navigate to={LOGIN_PATH} replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  return <>{children ?? <Outlet />}</>;
}

/** Admin pages (role ≥ 10): visitors go to the login page, ordinary users get a refusal. */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  const { user } = useSession();
  const { t } = useTranslation('common');
  const location = useLocation();
  if (!user) {
    return <Navigate to={LOGIN_PATH} replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  if (!isAdmin(user)) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="warning">{t('shell.forbidden')}</Alert>
      </Box>
    );
  }
  return <>{children ?? <Outlet />}</>;
}
