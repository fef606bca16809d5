import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import type { SessionUser } from '../../api/api-types';
import { useLoginMutation } from '../../api/gatehouse-api';
import { describeApiError } from '../../api/describe-api-error';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useNotify } from '../../provider/console-context';
import { useSession } from '../../provider/use-session';
import { useSystemStatus } from '../../provider/use-system-status';
import {
  needsSecondFactor,
  PasskeySignInButton,
  SecondFactorStep,
} from '../../components/second-factor-step';
import { AUTH_NAMESPACE, authLocales } from '../../components/auth-locales';
import { ThirdPartySignIn } from '../../components/third-party-sign-in';
import { useHumanCheck } from '../../components/turnstile-widget';
import { useRememberInviteCode } from '../../lib/invite-code';

/** Spec: password sign-in lands on /token. */
export const AFTER_LOGIN_PATH = '/token';

export interface LoginPageProps {
  /** Where to go after a successful sign-in; /token unless the host says otherwise. */
  redirectTo?: string;
}

export function LoginPage({ redirectTo }: LoginPageProps) {
  const { t } = useFeatureTranslation(AUTH_NAMESPACE, authLocales);
  const notify = useNotify();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { status } = useSystemStatus();
  const { signIn } = useSession();
  const [login, { isLoading }] = useLoginMutation();
  const human = useHumanCheck();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The password (or a third-party sign-in) was right and the account has a second factor: its step
  // replaces the form. Third-party sign-ins come back here with ?second_factor=1.
  const [secondStep, setSecondStep] = useState(() => searchParams.get('second_factor') === '1');
  useRememberInviteCode();

  const passwordLogin = status?.password_login_enabled !== false;
  // Always the spec's landing page: the page that bounced a visitor may be one this user cannot open.
  const destination = redirectTo ?? AFTER_LOGIN_PATH;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (username.trim() === '' || password === '') {
      setError(t('login.required'));
      return;
    }
    if (human.required && !human.token) {
      setError(t('common:humanCheck.pending'));
      return;
    }
    setError(null);
    try {
      const { data: user, message } = await login({
        username: username.trim(),
        password,
        turnstile: human.token || undefined,
      }).unwrap();
      if (needsSecondFactor(user)) {
        setSecondStep(true);
        return;
      }
      signIn(user);
      notify(t('login.success'), 'success');
      // The server says so when root still has the legacy default password (docs/decisions.md#login-failures-are-200).
      if (message) {
        notify(message, 'warning');
      }
      void navigate(destination);
    } catch (failure) {
      setError(describeApiError(failure, t, t('login.failed')));
      if (human.required) {
        human.renew();
      }
    }
  };

  const finishSignIn = (user: SessionUser) => {
    signIn(user);
    notify(t('login.success'), 'success');
    void navigate(destination);
  };

  return (
    <Box sx={{ maxWidth: 420, mx: 'auto', p: { xs: 2, sm: 3 } }}>
      <Paper sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={2}>
          <Typography variant="h5" component="h1">
            {t('login.title')}
          </Typography>
          {searchParams.get('expired') === 'true' && <Alert severity="info">{t('login.expired')}</Alert>}
          {secondStep ? (
            <SecondFactorStep onSignedIn={finishSignIn} onBack={() => setSecondStep(false)} />
          ) : passwordLogin ? (
            <Stack component="form" noValidate spacing={2} onSubmit={(event) => void submit(event)}>
              <TextField
                label={t('login.username')}
                name="username"
                autoComplete="username"
                value={username}
                onChange={(event) => setUsername(event.target.value)}
                fullWidth
              />
              <TextField
                label={t('login.password')}
                name="password"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                fullWidth
              />
              {human.widget}
              {error && (
                <Alert severity="error" role="alert">
                  {error}
                </Alert>
              )}
              <Button type="submit" variant="contained" size="large" disabled={isLoading}>
                {isLoading ? t('login.submitting') : t('login.submit')}
              </Button>
            </Stack>
          ) : (
            <Alert severity="info">{t('login.passwordLoginDisabled')}</Alert>
          )}
          {!secondStep && <PasskeySignInButton onSignedIn={finishSignIn} />}
          <ThirdPartySignIn />
          <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
            {status?.register_enabled !== false && (
              <Typography variant="body2">
                {t('login.noAccount')}{' '}
                <Link component={RouterLink} to="/register">
                  {t('login.register')}
                </Link>
              </Typography>
            )}
            <Typography variant="body2">
              {t('login.forgot')}{' '}
              <Link component={RouterLink} to="/reset">
                {t('login.reset')}
              </Link>
            </Typography>
          </Stack>
        </Stack>
      </Paper>
    </Box>
  );
}
