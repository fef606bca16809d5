import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { FormDrawer, useUnsavedEdits } from '../../components/form-drawer';
import { describeApiError } from '../../api/describe-api-error';
import { useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { USERS_NAMESPACE, usersLocales } from './users-locales';
import { useCreateUserMutation } from './users-api';

/** Spec: drawer width 600 (the full screen on a phone). */
export const DRAWER_WIDTH = 600;

export interface AddUserDrawerProps {
  open: boolean;
  onClose: () => void;
}

export function AddUserDrawer({ open, onClose }: AddUserDrawerProps) {
  return (
    <FormDrawer open={open} onClose={onClose} width={DRAWER_WIDTH}>
      {/* Mounted only while open, so every opening starts with an empty form. */}
      {open && <AddUserForm onClose={onClose} />}
    </FormDrawer>
  );
}

function AddUserForm({ onClose }: { onClose: () => void }) {
  const { t } = useFeatureTranslation(USERS_NAMESPACE, usersLocales);
  const notify = useNotify();
  const [createUser, { isLoading }] = useCreateUserMutation();
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  useUnsavedEdits(username !== '' || displayName !== '' || password !== '');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (username.trim() === '' || password === '') {
      setError(t('form.required'));
      return;
    }
    setError(null);
    try {
      await createUser({ username: username.trim(), display_name: displayName.trim(), password }).unwrap();
      notify(t('form.created'), 'success');
      onClose();
    } catch (failure) {
      setError(describeApiError(failure, t));
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ p: 3 }}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {t('form.addTitle')}
        </Typography>
        <TextField
          label={t('form.username')}
          name="username"
          autoComplete="off"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          required
          fullWidth
        />
        <TextField
          label={t('form.displayName')}
          name="display_name"
          autoComplete="off"
          value={displayName}
          onChange={(event) => setDisplayName(event.target.value)}
          fullWidth
        />
        <TextField
          label={t('form.password')}
          name="password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
          fullWidth
        />
        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('form.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isLoading}>
            {t('form.submit')}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
