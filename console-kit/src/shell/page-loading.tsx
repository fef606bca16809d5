import { Component, Suspense, type ReactNode } from 'react';
import { Alert, Box, Button, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** Shown in the page area while a lazily loaded page's code is on its way. */
export function PageLoading() {
  const { t } = useTranslation('common');
  return (
    <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
      <CircularProgress size={32} aria-label={t('status.loadingPage')} />
    </Box>
  );
}

function PageLoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('common');
  return (
    <Box sx={{ p: 3 }}>
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('status.reload')}
          </Button>
        }
      >
        {t('status.pageLoadFailed')}
      </Alert>
    </Box>
  );
}

interface BoundaryProps {
  children: ReactNode;
  /** Changes on navigation, so a failed page does not stick to the next one. */
  resetKey?: string;
}

interface BoundaryState {
  failed: boolean;
  resetKey?: string;
}

class PageLoadBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override render() {
    // A page whose code cannot be fetched (offline, or replaced by a newer release) needs a fresh load.
    return this.state.failed ? (
      <PageLoadFailed onRetry={() => window.location.reload()} />
    ) : (
      this.props.children
    );
  }
}

export interface PageSuspenseProps {
  children: ReactNode;
  /** Resets the error state, e.g. the current path. */
  resetKey?: string;
}

/**
 * Wraps pages that are loaded on demand (`React.lazy`): a progress indicator while the code loads and a
 * reload prompt if it cannot be loaded. The console layout puts it around its page area.
 */
export function PageSuspense({ children, resetKey }: PageSuspenseProps) {
  return (
    <PageLoadBoundary resetKey={resetKey}>
      <Suspense fallback={<PageLoading />}>{children}</Suspense>
    </PageLoadBoundary>
  );
}
