import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { describeApiError } from '../../api/describe-api-error';
import { useNotify } from '../../provider/console-context';
import { useHumanCheck } from '../../components/turnstile-widget';
import { useSendVerificationCodeMutation } from '../../lib/register-api';
import { useCountdown } from '../../lib/use-countdown';
import { useBindEmailMutation } from './personal-api';
import { usePersonalTranslation } from './use-personal-translation';

/** Spec: email and code required; the code can be sent again after 30 seconds. */
export function EmailBindDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = usePersonalTranslation();
  const notify = useNotify();
  const human = useHumanCheck();
  const countdown = useCountdown();
  const [sendCode, { isLoading: sending }] = useSendVerificationCodeMutation();
  const [bindEmail, { isLoading: binding }] = useBindEmailMutation();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const requestCode = async () => {
    setError(null);
    if (!email.trim()) {
      setError(t('emailBind.emailRequired'));
      return;
    }
    if (human.required && !human.token) {
      setError(t('common:humanCheck.pending'));
      return;
    }
    try {
      await sendCode({ email: email.trim(), purpose: 'bind', turnstile: human.token || undefined }).unwrap();
      countdown.start();
      notify(t('emailBind.codeSent'), 'success');
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
    if (!email.trim()) {
      setError(t('emailBind.emailRequired'));
      return;
    }
    if (!code.trim()) {
      setError(t('emailBind.codeRequired'));
      return;
    }
    try {
      await bindEmail({ email: email.trim(), code: code.trim() }).unwrap();
      notify(t('emailBind.success'), 'success');
      setCode('');
      onClose();
    } catch (failure) {
      setError(describeApiError(failure, t, t('failed')));
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="gatehouse-email-bind-title"
    >
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id="gatehouse-email-bind-title">{t('emailBind.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
              <TextField
                label={t('emailBind.email')}
                name="email"
                type="email"
                value={email}
                autoFocus
                onChange={(event) => setEmail(event.target.value)}
                fullWidth
              />
              <Button
                variant="outlined"
                onClick={() => void requestCode()}
                disabled={countdown.active || sending}
                sx={{ flexShrink: 0, height: 56, minWidth: 112 }}
              >
                {countdown.active
                  ? t('emailBind.resendIn', { seconds: countdown.remaining })
                  : t('emailBind.sendCode')}
              </Button>
            </Stack>
            <TextField
              label={t('emailBind.code')}
              name="code"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              fullWidth
            />
            {human.widget}
            {error && <Alert severity="error">{error}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={binding}>
            {t('emailBind.submit')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
