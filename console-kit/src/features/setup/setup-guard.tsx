import type { ReactNode } from 'react';
import { Alert, Box, CircularProgress } from '@mui/material';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useGetStatusQuery } from '../../api/gatehouse-api';
import { isApiError } from '../../api/describe-api-error';

export const SETUP_PATH = '/setup';

/**
 * Spec: while the server says setup is not done, every route except /setup redirects to /setup.
 * Use it as a layout route around the host's routes (renders the matched child through <Outlet/>).
 */
export function SetupGuard({ children }: { children?: ReactNode }) {
  const { data, isLoading, error } = useGetStatusQuery();
  const { pathname } = useLocation();
  const { t } = useTranslation('common');

  if (isLoading) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress />
      </Box>
    );
  }
  if (data?.setup === false && pathname !== SETUP_PATH) {
    return <Navigate to={SETUP_PATH} replace />;
  }
  return (
    <>
      {error && (
        <Alert severity="error" sx={{ borderRadius: 0 }}>
          {isApiError(error) && (error.status === 'NETWORK' || error.status === 'TIMEOUT')
            ? t('errors.network')
            : t('status.loadFailed')}
        </Alert>
      )}
      {children ?? <Outlet />}
    </>
  );
}
