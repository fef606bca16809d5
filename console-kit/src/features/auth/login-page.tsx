import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useNavigate, useSearchParams } from 'react-router';
import { useLoginMutation } from '../../api/gatehouse-api';
import { describeApiError } from '../../api/describe-api-error';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useNotify } from '../../provider/console-context';
import { useSession } from '../../provider/use-session';
import { AUTH_NAMESPACE, authLocales } from './auth-locales';

/** Spec: password sign-in lands on /token. */
export const AFTER_LOGIN_PATH = '/token';

/** Legacy installs seeded root with this password; the spec asks for a warning when it is still used. */
const LEGACY_ROOT_PASSWORD = '123456';

export interface LoginPageProps {
  /** Where to go after a successful sign-in; defaults to /token. */
  redirectTo?: string;
}

export function LoginPage({ redirectTo = AFTER_LOGIN_PATH }: LoginPageProps) {
  const { t } = useFeatureTranslation(AUTH_NAMESPACE, authLocales);
  const notify = useNotify();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { signIn } = useSession();
  const [login, { isLoading }] = useLoginMutation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (username === '' || password === '') {
      setError(t('login.required'));
      return;
    }
    setError(null);
    try {
      const user = await login({ username, password }).unwrap();
      signIn(user);
      notify(t('login.success'), 'success');
      if (user.username === 'root' && password === LEGACY_ROOT_PASSWORD) {
        notify(t('login.defaultPassword'), 'warning');
      }
      void navigate(redirectTo);
    } catch (failure) {
      setError(describeApiError(failure, t, t('login.failed')));
    }
  };

  return (
    <Box sx={{ maxWidth: 420, mx: 'auto', p: { xs: 2, sm: 3 } }}>
      <Paper
        component="form"
        noValidate
        onSubmit={(event) => void submit(event)}
        sx={{ p: { xs: 2, sm: 4 } }}
      >
        <Stack spacing={2}>
          <Typography variant="h5" component="h1">
            {t('login.title')}
          </Typography>
          {searchParams.get('expired') === 'true' && <Alert severity="info">{t('login.expired')}</Alert>}
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
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" variant="contained" size="large" disabled={isLoading}>
            {isLoading ? t('login.submitting') : t('login.submit')}
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}
