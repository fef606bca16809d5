import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { startAuthentication } from '../../lib/webauthn';
import { describeApiError } from '../../api/describe-api-error';
import { registerStepUpPrompt } from '../../api/step-up-prompt';
import { useConsoleRuntime } from '../../provider/console-context';
import {
  useGetTwoFactorQuery,
  usePasskeyStepUpMutation,
  usePasskeyStepUpOptionsMutation,
  useStepUpMutation,
} from '../../lib/security-api';
import { useSecurityTranslation } from '../../components/use-security-translation';

/**
 * The mount's "confirm it is you" dialog. Sensitive actions (password, e-mail, access token, account
 * deletion, second factors, root-only settings) answer `step_up_required` when the last check is not
 * recent; the base query opens this dialog and repeats the call once the person confirmed with their
 * password, or a two-factor code or passkey when the account has a second factor.
 */
export function StepUpHost() {
  const runtime = useConsoleRuntime();
  const [open, setOpen] = useState(false);
  const pending = useRef<((confirmed: boolean) => void) | null>(null);

  useEffect(
    () =>
      registerStepUpPrompt(
        runtime,
        () =>
          new Promise<boolean>((resolve) => {
            pending.current?.(false);
            pending.current = resolve;
            setOpen(true);
          }),
      ),
    [runtime],
  );

  const finish = useCallback((confirmed: boolean) => {
    setOpen(false);
    pending.current?.(confirmed);
    pending.current = null;
  }, []);

  return open ? <StepUpDialog onDone={finish} /> : null;
}

function StepUpDialog({ onDone }: { onDone: (confirmed: boolean) => void }) {
  const { t } = useSecurityTranslation();
  const { data: status } = useGetTwoFactorQuery();
  const [stepUp, { isLoading }] = useStepUpMutation();
  const [passkeyOptions] = usePasskeyStepUpOptionsMutation();
  const [passkeyStepUp] = usePasskeyStepUpMutation();
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const withFactor = status?.enabled === true;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await stepUp(withFactor ? { code: secret.trim() } : { password: secret }).unwrap();
      onDone(true);
    } catch (failure) {
      setError(describeApiError(failure, t, t('stepUp.failed')));
    }
  };

  const confirmWithPasskey = async () => {
    setError(null);
    try {
      const optionsJSON = await passkeyOptions().unwrap();
      const response = await startAuthentication({ optionsJSON });
      await passkeyStepUp({ response }).unwrap();
      onDone(true);
    } catch (failure) {
      setError(describeApiError(failure, t, t('stepUp.failed')));
    }
  };

  return (
    <Dialog open onClose={() => onDone(false)} fullWidth maxWidth="xs" aria-labelledby="step-up-title">
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id="step-up-title">{t('stepUp.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2">{t('stepUp.hint')}</Typography>
            <TextField
              autoFocus
              name={withFactor ? 'step-up-code' : 'step-up-password'}
              label={withFactor ? t('stepUp.code') : t('stepUp.password')}
              type={withFactor ? 'text' : 'password'}
              autoComplete={withFactor ? 'one-time-code' : 'current-password'}
              value={secret}
              onChange={(event) => setSecret(event.target.value)}
              fullWidth
            />
            {withFactor && (status?.passkeys.length ?? 0) > 0 && (
              <Button variant="outlined" onClick={() => void confirmWithPasskey()}>
                {t('stepUp.usePasskey')}
              </Button>
            )}
            {error && (
              <Alert severity="error" role="alert">
                {error}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => onDone(false)}>{t('stepUp.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isLoading || secret === ''}>
            {t('stepUp.confirm')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
