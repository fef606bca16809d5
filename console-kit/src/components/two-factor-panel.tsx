import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  InputAdornment,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { describeApiError } from '../api/describe-api-error';
import { useApiAction } from '../api/use-api-action';
import { useCopyText } from '../provider/clipboard';
import { useNotify } from '../provider/console-context';
import {
  useDisableTotpMutation,
  useEnableTotpMutation,
  useGetTwoFactorQuery,
  usePasskeyRegisterMutation,
  usePasskeyRegisterOptionsMutation,
  useRegenerateRecoveryCodesMutation,
  useRemovePasskeyMutation,
  useSetupTotpMutation,
  type TotpSetup,
} from '../lib/security-api';
import { useSecurityTranslation } from './use-security-translation';
import { formatDateTime as formatTime } from '../format/date-time';

/** Recovery codes, shown once right after they are made. */
function RecoveryCodesDialog({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  const { t } = useSecurityTranslation();
  const copyText = useCopyText();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="recovery-codes-title">
      <DialogTitle id="recovery-codes-title">{t('panel.recoveryTitle')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" gutterBottom>
          {t('panel.recoveryHint')}
        </Typography>
        <Box
          component="pre"
          data-testid="recovery-codes"
          sx={{ fontFamily: 'monospace', bgcolor: 'action.hover', p: 2, borderRadius: 1, m: 0 }}
        >
          {codes.join('\n')}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void copyText(codes.join('\n'), t('panel.copied'))}>
          {t('panel.copyCodes')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {t('panel.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The key as authenticator apps show it: blocks of 4, easier to type and to check. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** Authenticator enrolment: the QR code (and the key to type), then the first code. */
function TotpEnrolDialog({
  setup,
  onClose,
  onEnabled,
}: {
  setup: TotpSetup;
  onClose: () => void;
  onEnabled: (codes: string[]) => void;
}) {
  const { t } = useSecurityTranslation();
  const copyText = useCopyText();
  const [enable, { isLoading }] = useEnableTotpMutation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const { recovery_codes } = await enable({ code: code.trim() }).unwrap();
      onEnabled(recovery_codes);
    } catch (failure) {
      setError(describeApiError(failure, t, t('panel.failed')));
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="totp-enrol-title">
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id="totp-enrol-title">{t('panel.enable')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1, alignItems: 'center' }}>
            <Typography variant="body2">{t('panel.scan')}</Typography>
            <Box component="img" src={setup.qr_code} alt="otpauth QR" sx={{ width: 200, height: 200 }} />
            <TextField
              label={t('panel.secret')}
              value={groupSecret(setup.secret)}
              size="small"
              fullWidth
              multiline
              slotProps={{
                htmlInput: {
                  readOnly: true,
                  'data-testid': 'totp-secret',
                  spellCheck: false,
                  style: { fontFamily: 'monospace', letterSpacing: '0.05em' },
                },
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <Button size="small" onClick={() => void copyText(setup.secret, t('panel.copied'))}>
                        {t('panel.copySecret')}
                      </Button>
                    </InputAdornment>
                  ),
                },
              }}
              onFocus={(event) => event.target.select()}
            />
            <TextField
              autoFocus
              label={t('panel.code')}
              name="totp-code"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              fullWidth
            />
            {error && (
              <Alert severity="error" role="alert" sx={{ width: '100%' }}>
                {error}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('panel.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isLoading || code.trim() === ''}>
            {t('panel.confirm')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/**
 * Two-factor sign-in of the signed-in user: the authenticator app (enrol with a QR code, turn off,
 * new recovery codes) and passkeys (add, remove). Changes need a fresh check; the console asks for it.
 */
export function TwoFactorPanel() {
  const { t } = useSecurityTranslation();
  const notify = useNotify();
  const { data: status } = useGetTwoFactorQuery();
  const [setupTotp] = useSetupTotpMutation();
  const [disableTotp] = useDisableTotpMutation();
  const [regenerate] = useRegenerateRecoveryCodesMutation();
  const [registerOptions] = usePasskeyRegisterOptionsMutation();
  const [register] = usePasskeyRegisterMutation();
  const [removePasskey] = useRemovePasskeyMutation();
  const [enrolling, setEnrolling] = useState<TotpSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [passkeyName, setPasskeyName] = useState('');
  const starting = useApiAction(t);
  const action = useApiAction(t);
  const failed = { fallback: t('panel.failed') };

  const startTotp = () =>
    starting.run(async () => {
      setEnrolling(await setupTotp().unwrap());
    }, failed);
  const turnOffTotp = async () => {
    if (!window.confirm(t('panel.disableConfirm'))) return;
    await action.run(() => disableTotp().unwrap(), { ...failed, success: t('panel.disabled') });
  };
  const newCodes = () =>
    action.run(async () => {
      setCodes((await regenerate().unwrap()).recovery_codes);
    }, failed);
  const addPasskey = () =>
    action.run(
      async () => {
        const optionsJSON = await registerOptions().unwrap();
        const response = await startRegistration({ optionsJSON });
        await register({ response, name: passkeyName.trim() || undefined }).unwrap();
        setPasskeyName('');
      },
      { ...failed, success: t('panel.passkeyAdded') },
    );
  const remove = async (id: number, name: string) => {
    if (!window.confirm(t('panel.removeConfirm', { name }))) return;
    await action.run(() => removePasskey(id).unwrap(), { ...failed, success: t('panel.passkeyRemoved') });
  };

  return (
    <Box sx={{ py: 1.5 }} data-testid="two-factor-panel">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 500 }}>
        {t('panel.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        {t('panel.intro')}
      </Typography>
      {status?.required_for_admins && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t('panel.requiredForAdmins')}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, py: 1 }}>
        <Typography variant="body2">{t('panel.totpTitle')}</Typography>
        <Chip
          size="small"
          color={status?.totp_enabled ? 'success' : 'default'}
          label={status?.totp_enabled ? t('panel.totpOn') : t('panel.totpOff')}
        />
        {status?.totp_enabled ? (
          <>
            <Typography variant="body2" color="text.secondary">
              {t('panel.recoveryLeft', { count: status.recovery_codes_left })}
            </Typography>
            <Button size="small" onClick={() => void newCodes()}>
              {t('panel.regenerate')}
            </Button>
            <Button size="small" color="error" onClick={() => void turnOffTotp()}>
              {t('panel.disable')}
            </Button>
          </>
        ) : (
          <Button variant="outlined" size="small" onClick={() => void startTotp()} disabled={starting.busy}>
            {t('panel.enable')}
          </Button>
        )}
      </Stack>
      <Divider sx={{ my: 1 }} />
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {t('panel.passkeysTitle')}
      </Typography>
      {status && status.passkeys.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('panel.passkeysNone')}
        </Typography>
      )}
      <List dense>
        {status?.passkeys.map((p) => (
          <ListItem
            key={p.id}
            disableGutters
            secondaryAction={
              <Button size="small" color="error" onClick={() => void remove(p.id, p.name)}>
                {t('panel.remove')}
              </Button>
            }
          >
            <ListItemText
              primary={p.name}
              secondary={`${t('panel.created', { time: formatTime(p.created_at) })} · ${
                p.last_used_at ? t('panel.lastUsed', { time: formatTime(p.last_used_at) }) : t('panel.never')
              }`}
            />
          </ListItem>
        ))}
      </List>
      {browserSupportsWebAuthn() ? (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <TextField
            size="small"
            label={t('panel.passkeyName')}
            value={passkeyName}
            onChange={(event) => setPasskeyName(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 64 } }}
          />
          <Button variant="outlined" onClick={() => void addPasskey()}>
            {t('panel.addPasskey')}
          </Button>
        </Stack>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('panel.unsupported')}
        </Typography>
      )}
      {enrolling && (
        <TotpEnrolDialog
          setup={enrolling}
          onClose={() => setEnrolling(null)}
          onEnabled={(fresh) => {
            setEnrolling(null);
            setCodes(fresh);
            notify(t('panel.enabled'), 'success');
          }}
        />
      )}
      {codes && <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />}
    </Box>
  );
}
