import { useState, type FormEvent } from 'react';
import { Alert, Button, Stack, TextField, Typography } from '@mui/material';
import { browserSupportsWebAuthn, startAuthentication } from '../lib/webauthn';
import type { SessionUser } from '../api/api-types';
import { describeApiError } from '../api/describe-api-error';
import {
  useLoginSecondFactorMutation,
  usePasskeyLoginMutation,
  usePasskeyLoginOptionsMutation,
} from '../lib/security-api';
import { useSecurityTranslation } from './use-security-translation';

/** The login page showing the second step (third-party sign-ins that need one land here). */
export const SECOND_FACTOR_PATH = '/login?second_factor=1';

/** Whether a sign-in answer asks for the second step instead of naming the user. */
export function needsSecondFactor(answer: unknown): boolean {
  return (
    typeof answer === 'object' &&
    answer !== null &&
    (answer as { require_2fa?: unknown }).require_2fa === true
  );
}

export interface SecondFactorStepProps {
  onSignedIn: (user: SessionUser) => void;
  onBack: () => void;
}

/** The second step of a sign-in: an authenticator or recovery code, or a passkey. */
export function SecondFactorStep({ onSignedIn, onBack }: SecondFactorStepProps) {
  const { t } = useSecurityTranslation();
  const [verify, { isLoading }] = useLoginSecondFactorMutation();
  const [passkeyOptions] = usePasskeyLoginOptionsMutation();
  const [passkeyLogin] = usePasskeyLoginMutation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') {
      setError(t('secondFactor.required'));
      return;
    }
    setError(null);
    try {
      onSignedIn(await verify({ code: code.trim() }).unwrap());
    } catch (failure) {
      setError(describeApiError(failure, t, t('passkeyLogin.failed')));
    }
  };

  const withPasskey = async () => {
    setError(null);
    try {
      const optionsJSON = await passkeyOptions().unwrap();
      const response = await startAuthentication({ optionsJSON });
      onSignedIn(await passkeyLogin({ response }).unwrap());
    } catch (failure) {
      setError(describeApiError(failure, t, t('passkeyLogin.failed')));
    }
  };

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={(event) => void submit(event)}>
      <Typography variant="h6" component="h2">
        {t('secondFactor.title')}
      </Typography>
      <Typography variant="body2">{t('secondFactor.hint')}</Typography>
      <TextField
        autoFocus
        label={t('secondFactor.code')}
        name="two-factor-code"
        autoComplete="one-time-code"
        value={code}
        onChange={(event) => setCode(event.target.value)}
        fullWidth
      />
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <Button type="submit" variant="contained" size="large" disabled={isLoading}>
        {t('secondFactor.submit')}
      </Button>
      {browserSupportsWebAuthn() && (
        <Button variant="outlined" onClick={() => void withPasskey()}>
          {t('secondFactor.usePasskey')}
        </Button>
      )}
      <Button onClick={onBack}>{t('secondFactor.back')}</Button>
    </Stack>
  );
}

/** Password-less sign-in: the browser offers the passkeys it holds for this site. */
export function PasskeySignInButton({ onSignedIn }: { onSignedIn: (user: SessionUser) => void }) {
  const { t } = useSecurityTranslation();
  const [passkeyOptions] = usePasskeyLoginOptionsMutation();
  const [passkeyLogin, { isLoading }] = usePasskeyLoginMutation();
  const [error, setError] = useState<string | null>(null);
  if (!browserSupportsWebAuthn()) return null;

  const signIn = async () => {
    setError(null);
    try {
      const optionsJSON = await passkeyOptions().unwrap();
      const response = await startAuthentication({ optionsJSON });
      onSignedIn(await passkeyLogin({ response }).unwrap());
    } catch (failure) {
      setError(describeApiError(failure, t, t('passkeyLogin.failed')));
    }
  };

  return (
    <Stack spacing={1}>
      <Button variant="outlined" onClick={() => void signIn()} disabled={isLoading}>
        {t('passkeyLogin.button')}
      </Button>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
