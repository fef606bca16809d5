import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { describeApiError } from '../../api/describe-api-error';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useHumanCheck } from '../../components/turnstile-widget';
import { looksLikeEmail } from '../../lib/account-validation';
import { useCountdown } from '../../lib/use-countdown';
import { useRequestPasswordResetMutation } from './reset-api';
import { RESET_NAMESPACE, resetLocales } from './reset-locales';

/** docs/decisions.md#reset-page: email, optional human check, 30-second retry countdown. */
export function ResetRequestPage() {
  const { t } = useFeatureTranslation(RESET_NAMESPACE, resetLocales);
  const human = useHumanCheck();
  const countdown = useCountdown();
  const [requestReset, { isLoading }] = useRequestPasswordResetMutation();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!email.trim()) {
      setError(t('request.emailRequired'));
      return;
    }
    if (!looksLikeEmail(email)) {
      setError(t('request.emailInvalid'));
      return;
    }
    if (human.required && !human.token) {
      setError(t('common:humanCheck.pending'));
      return;
    }
    try {
      await requestReset({ email: email.trim(), turnstile: human.token || undefined }).unwrap();
      setSent(true);
      countdown.start();
    } catch (failure) {
      setError(describeApiError(failure, t));
    } finally {
      if (human.required) {
        human.renew();
      }
    }
  };

  return (
    <Box sx={{ maxWidth: 420, mx: 'auto', p: { xs: 2, sm: 3 } }}>
      <Paper sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack component="form" noValidate spacing={2} onSubmit={(event) => void submit(event)}>
          <Typography variant="h5" component="h1">
            {t('request.title')}
          </Typography>
          <TextField
            label={t('request.email')}
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            fullWidth
          />
          {human.widget}
          {sent && <Alert severity="success">{t('request.sent')}</Alert>}
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" variant="contained" size="large" disabled={isLoading || countdown.active}>
            {countdown.active ? t('request.retryIn', { seconds: countdown.remaining }) : t('request.submit')}
          </Button>
          <Link component={RouterLink} to="/login" variant="body2">
            {t('request.backToLogin')}
          </Link>
        </Stack>
      </Paper>
    </Box>
  );
}
