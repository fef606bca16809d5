import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import { PasswordFields } from '../../components/password-fields';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { describeApiError } from '../../api/describe-api-error';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useConsoleStorage, useNotify } from '../../provider/console-context';
import { StorageKeys } from '../../provider/console-storage';
import { useSystemStatus } from '../../provider/use-system-status';
import { useRememberInviteCode } from '../../lib/invite-code';
import { ThirdPartySignIn } from '../../components/third-party-sign-in';
import { useHumanCheck } from '../../components/turnstile-widget';
import { useRegisterMutation, useSendVerificationCodeMutation } from '../../lib/register-api';
import { REGISTER_NAMESPACE, registerLocales } from './register-locales';
import {
  looksLikeEmail,
  toRegisterPayload,
  validateRegisterForm,
  type RegisterField,
  type RegisterFormValues,
  type RegisterValidationError,
} from '../../lib/account-validation';
import { useCountdown } from '../../lib/use-countdown';

export const AFTER_REGISTER_PATH = '/login';

export function RegisterPage() {
  const { t } = useFeatureTranslation(REGISTER_NAMESPACE, registerLocales);
  const notify = useNotify();
  const navigate = useNavigate();
  const storage = useConsoleStorage();
  const [searchParams] = useSearchParams();
  const { status } = useSystemStatus();
  const human = useHumanCheck();
  const countdown = useCountdown();
  const [register, { isLoading }] = useRegisterMutation();
  const [sendCode, { isLoading: sending }] = useSendVerificationCodeMutation();
  const [values, setValues] = useState<RegisterFormValues>({
    username: '',
    password: '',
    password2: '',
    email: '',
    verificationCode: '',
  });
  const [invalid, setInvalid] = useState<RegisterValidationError | null>(null);
  const [error, setError] = useState<string | null>(null);
  useRememberInviteCode();

  const emailVerification = Boolean(status?.email_verification);
  const affCode = searchParams.get('aff') ?? storage.getItem(StorageKeys.aff);
  const registerOpen = status?.register_enabled !== false;
  const passwordRegister = registerOpen && status?.password_register_enabled !== false;

  const change = (field: RegisterField) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (invalid?.field === field) {
      setInvalid(null);
    }
  };
  const fieldError = (field: RegisterField) => (invalid?.field === field ? t(invalid.messageKey) : undefined);

  const requestCode = async () => {
    setError(null);
    if (!looksLikeEmail(values.email)) {
      setInvalid({
        field: 'email',
        messageKey: values.email.trim() ? 'validation.emailInvalid' : 'validation.emailRequired',
      });
      return;
    }
    if (human.required && !human.token) {
      setError(t('common:humanCheck.pending'));
      return;
    }
    try {
      await sendCode({ email: values.email.trim(), turnstile: human.token || undefined }).unwrap();
      countdown.start();
      notify(t('codeSent'), 'success');
    } catch (failure) {
      setError(describeApiError(failure, t));
    } finally {
      if (human.required) {
        human.renew();
      }
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const problem = validateRegisterForm(values, emailVerification);
    setInvalid(problem);
    if (problem) {
      return;
    }
    if (human.required && !human.token) {
      setError(t('common:humanCheck.pending'));
      return;
    }
    try {
      await register({
        ...toRegisterPayload(values, emailVerification, affCode),
        turnstile: human.token || undefined,
      }).unwrap();
      storage.removeItem(StorageKeys.aff);
      notify(t('success'), 'success');
      void navigate(AFTER_REGISTER_PATH);
    } catch (failure) {
      setError(describeApiError(failure, t, t('failed')));
      if (human.required) {
        human.renew();
      }
    }
  };

  return (
    <Box sx={{ maxWidth: 460, mx: 'auto', p: { xs: 2, sm: 3 } }}>
      <Paper sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={2}>
          <Typography variant="h5" component="h1">
            {t('title')}
          </Typography>
          {!registerOpen && <Alert severity="warning">{t('registerDisabled')}</Alert>}
          {registerOpen && !passwordRegister && (
            <Alert severity="info">{t('passwordRegisterDisabled')}</Alert>
          )}
          {passwordRegister && (
            <Stack component="form" noValidate spacing={2} onSubmit={(event) => void submit(event)}>
              <TextField
                label={t('username')}
                name="username"
                autoComplete="username"
                value={values.username}
                onChange={(event) => change('username')(event.target.value)}
                error={fieldError('username') !== undefined}
                helperText={fieldError('username') ?? t('usernameHint')}
                fullWidth
              />
              <PasswordFields
                password={{
                  label: t('password'),
                  name: 'password',
                  value: values.password,
                  onChange: change('password'),
                  error: fieldError('password'),
                  hint: t('passwordHint'),
                }}
                confirm={{
                  label: t('password2'),
                  name: 'password2',
                  value: values.password2,
                  onChange: change('password2'),
                  error: fieldError('password2'),
                }}
              />
              {emailVerification && (
                <>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
                    <TextField
                      label={t('email')}
                      name="email"
                      type="email"
                      autoComplete="email"
                      value={values.email}
                      onChange={(event) => change('email')(event.target.value)}
                      error={fieldError('email') !== undefined}
                      helperText={fieldError('email')}
                      fullWidth
                    />
                    <Button
                      variant="outlined"
                      onClick={() => void requestCode()}
                      disabled={countdown.active || sending}
                      sx={{ flexShrink: 0, height: 56, minWidth: 112 }}
                    >
                      {countdown.active ? t('resendIn', { seconds: countdown.remaining }) : t('sendCode')}
                    </Button>
                  </Stack>
                  <TextField
                    label={t('code')}
                    name="verification_code"
                    autoComplete="one-time-code"
                    value={values.verificationCode}
                    onChange={(event) => change('verificationCode')(event.target.value)}
                    error={fieldError('verificationCode') !== undefined}
                    helperText={fieldError('verificationCode')}
                    fullWidth
                  />
                </>
              )}
              {affCode && (
                <Typography variant="body2" color="text.secondary">
                  {t('inviteCode', { code: affCode })}
                </Typography>
              )}
              {human.widget}
              {error && (
                <Alert severity="error" role="alert">
                  {error}
                </Alert>
              )}
              <Button type="submit" variant="contained" size="large" disabled={isLoading}>
                {isLoading ? t('submitting') : t('submit')}
              </Button>
            </Stack>
          )}
          {registerOpen && <ThirdPartySignIn />}
          <Typography variant="body2">
            {t('haveAccount')}{' '}
            <Link component={RouterLink} to="/login">
              {t('login')}
            </Link>
          </Typography>
        </Stack>
      </Paper>
    </Box>
  );
}
