import { useState, type FormEvent, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { PasswordFields } from '../../components/password-fields';
import { useNavigate } from 'react-router';
import type { SelfUser } from '../../api/api-types';
import { describeApiError } from '../../api/describe-api-error';
import { useApiAction } from '../../api/use-api-action';
import { useCopyText } from '../../provider/clipboard';
import { useNotify } from '../../provider/console-context';
import { useSession } from '../../provider/use-session';
import { useDeleteSelfMutation, useResetAccessTokenMutation, useUpdateSelfMutation } from './personal-api';
import { validateDeleteConfirmation, validatePasswordChange } from './personal-rules';
import { TwoFactorPanel } from '../../components/two-factor-panel';
import { usePersonalTranslation } from './use-personal-translation';

function PasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = usePersonalTranslation();
  const notify = useNotify();
  const [updateSelf, { isLoading }] = useUpdateSelfMutation();
  const [values, setValues] = useState({ original: '', password: '', confirm: '' });
  const [error, setError] = useState<string | null>(null);
  const set = (field: keyof typeof values) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validatePasswordChange(values);
    if (problem) {
      setError(t(problem.messageKey));
      return;
    }
    try {
      await updateSelf({ password: values.password, original_password: values.original }).unwrap();
      notify(t('password.success'), 'success');
      setValues({ original: '', password: '', confirm: '' });
      onClose();
    } catch (failure) {
      setError(describeApiError(failure, t, t('failed')));
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="gatehouse-password-title">
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id="gatehouse-password-title">{t('password.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('password.original')}
              name="original_password"
              type="password"
              autoComplete="current-password"
              value={values.original}
              onChange={(event) => set('original')(event.target.value)}
              helperText={t('password.originalHint')}
              fullWidth
            />
            <PasswordFields
              password={{
                label: t('password.new'),
                name: 'new_password',
                value: values.password,
                onChange: set('password'),
                hint: t('password.newHint'),
              }}
              confirm={{
                label: t('password.confirm'),
                name: 'confirm_password',
                value: values.confirm,
                onChange: set('confirm'),
              }}
            />
            {error && <Alert severity="error">{error}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isLoading}>
            {t('password.submit')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

function DeleteAccountDialog({
  open,
  username,
  onClose,
}: {
  open: boolean;
  username: string;
  onClose: () => void;
}) {
  const { t } = usePersonalTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const { clear } = useSession();
  const [deleteSelf, { isLoading }] = useDeleteSelfMutation();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validateDeleteConfirmation(typed, username);
    if (problem) {
      setError(t(problem.messageKey));
      return;
    }
    try {
      await deleteSelf({ username: typed }).unwrap();
      notify(t('delete.success'), 'success');
      clear();
      void navigate('/login');
    } catch (failure) {
      setError(describeApiError(failure, t, t('failed')));
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="gatehouse-delete-title">
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id="gatehouse-delete-title">{t('delete.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Alert severity="error">{t('delete.warning')}</Alert>
            <Typography>{t('delete.prompt', { username })}</Typography>
            <TextField
              label={t('delete.confirmLabel')}
              name="confirm_username"
              value={typed}
              autoComplete="off"
              onChange={(event) => setTyped(event.target.value)}
              fullWidth
            />
            {error && <Alert severity="error">{error}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
          <Button type="submit" color="error" variant="contained" disabled={isLoading}>
            {t('delete.submit')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

function Section({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  return (
    <Box sx={{ py: 1.5 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 500 }}>
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        {hint}
      </Typography>
      {children}
    </Box>
  );
}

/** Access token reset (copied to the clipboard), two-factor sign-in, password change, account deletion. */
export function SecurityPanel({ self }: { self: SelfUser }) {
  const { t } = usePersonalTranslation();
  const copyText = useCopyText();
  const [resetToken] = useResetAccessTokenMutation();
  const resetting = useApiAction(t);
  const [token, setToken] = useState<string | null>(null);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);

  const reset = async () => {
    const fresh = await resetting.answer(() => resetToken().unwrap(), { fallback: t('failed') });
    if (fresh === undefined) return;
    setToken(fresh);
    await copyText(fresh, t('security.tokenReset'));
  };

  return (
    <Box>
      <Section title={t('security.tokenTitle')} hint={t('security.tokenHint')}>
        <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
          <Button variant="outlined" onClick={() => void reset()} disabled={resetting.busy}>
            {t('security.resetToken')}
          </Button>
          {token && (
            <TextField
              label={t('security.newToken')}
              value={token}
              size="small"
              fullWidth
              slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'access-token' } }}
              onFocus={(event) => event.target.select()}
            />
          )}
        </Stack>
      </Section>
      <Divider />
      <TwoFactorPanel />
      <Divider />
      <Section title={t('security.passwordTitle')} hint={t('security.passwordHint')}>
        <Button variant="outlined" onClick={() => setPasswordOpen(true)}>
          {t('security.changePassword')}
        </Button>
      </Section>
      <Divider />
      <Section title={t('security.deleteTitle')} hint={t('security.deleteHint')}>
        <Button variant="outlined" color="error" onClick={() => setDeleteOpen(true)}>
          {t('security.deleteAccount')}
        </Button>
      </Section>
      <PasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
      <DeleteAccountDialog open={deleteOpen} username={self.username} onClose={() => setDeleteOpen(false)} />
    </Box>
  );
}
