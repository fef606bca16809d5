import { useEffect, useRef, useState } from 'react';
import { Alert, Box, CircularProgress, Stack, Typography } from '@mui/material';
import { skipToken } from '@reduxjs/toolkit/query';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { describeApiError } from '../../api/describe-api-error';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useNotify } from '../../provider/console-context';
import { useSession } from '../../provider/use-session';
import { callbackParams, isRedirectProvider } from '../../lib/oauth-redirect';
import { needsSecondFactor, SECOND_FACTOR_PATH } from '../../components/second-factor-step';
import { useCompleteOAuthQuery } from '../../lib/oauth-api';
import { OAUTH_NAMESPACE, oauthLocales } from '../../components/oauth-locales';

/** docs/decisions.md#sign-in-landing: where each outcome lands. */
export const OAUTH_LOGIN_LANDING = '/token';
export const OAUTH_BIND_LANDING = '/personal';
export const OAUTH_FAILURE_LANDING = '/login';
/** Long enough to read the failure message before the redirect. */
export const OAUTH_FAILURE_DELAY_MS = 1500;

/** The return page of GitHub, OIDC and LinuxDO sign-in and binding: `/oauth/:provider?code&state`. */
export function OAuthCallbackPage() {
  const { t } = useFeatureTranslation(OAUTH_NAMESPACE, oauthLocales);
  const { provider } = useParams();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const notify = useNotify();
  const { user, signIn } = useSession();
  // Someone signed in who comes back from a provider was binding it.
  const [binding] = useState(() => user !== null);
  const known = isRedirectProvider(provider);
  const params = known ? callbackParams(provider, searchParams) : null;
  const args = known && params ? { provider, ...params } : skipToken;
  const { data, error, isError, isSuccess } = useCompleteOAuthQuery(args);
  const handled = useRef(false);

  const problem = !known
    ? t('unknownProvider')
    : !params
      ? (searchParams.get('error_description') ?? searchParams.get('error') ?? t('missingCode'))
      : isError
        ? describeApiError(error, t)
        : null;

  useEffect(() => {
    if (handled.current || !isSuccess || !data) {
      return;
    }
    handled.current = true;
    if (data.message === 'bind') {
      notify(t('bindSuccess'), 'success');
      void navigate(OAUTH_BIND_LANDING, { replace: true });
    } else if (needsSecondFactor(data.data)) {
      // The account has a second factor: the login page asks for it (the server holds the first step).
      void navigate(SECOND_FACTOR_PATH, { replace: true });
    } else if (data.data) {
      signIn(data.data);
      notify(t('loginSuccess'), 'success');
      void navigate(OAUTH_LOGIN_LANDING, { replace: true });
    }
  }, [isSuccess, data, navigate, notify, signIn, t]);

  useEffect(() => {
    if (!problem) {
      return undefined;
    }
    if (!handled.current) {
      handled.current = true;
      notify(problem, 'error');
    }
    const timer = setTimeout(
      () => void navigate(binding ? OAUTH_BIND_LANDING : OAUTH_FAILURE_LANDING, { replace: true }),
      OAUTH_FAILURE_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [problem, binding, navigate, notify]);

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
      {problem ? (
        <Stack spacing={2} sx={{ maxWidth: 480 }}>
          <Alert severity="error">{problem}</Alert>
          <Typography color="text.secondary">
            {binding ? t('failedToPersonal') : t('failedToLogin')}
          </Typography>
        </Stack>
      ) : (
        <Stack spacing={2} sx={{ alignItems: 'center' }}>
          <CircularProgress />
          <Typography>{t('processing')}</Typography>
        </Stack>
      )}
    </Box>
  );
}
