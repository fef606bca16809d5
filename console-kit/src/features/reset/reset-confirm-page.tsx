import { useState } from 'react';
import { Alert, Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { describeApiError } from '../../api/describe-api-error';
import { useCopyText } from '../../provider/clipboard';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useConfirmPasswordResetMutation } from './reset-api';
import { RESET_NAMESPACE, resetLocales } from './reset-locales';

/** Where the emailed link points (docs/decisions.md#email-codes-and-reset: `<ServerAddress>/user/reset?email=&token=`). */
export const RESET_CONFIRM_PATH = '/user/reset';

/** Reads email and token from the link, resets, shows the new password and copies it. */
export function ResetConfirmPage() {
  const { t } = useFeatureTranslation(RESET_NAMESPACE, resetLocales);
  const [searchParams] = useSearchParams();
  const copyText = useCopyText();
  const [confirmReset, { isLoading }] = useConfirmPasswordResetMutation();
  const [newPassword, setNewPassword] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const email = searchParams.get('email') ?? '';
  const token = searchParams.get('token') ?? '';
  const linkValid = email !== '' && token !== '';

  const confirm = async () => {
    setError(null);
    try {
      const password = await confirmReset({ email, token }).unwrap();
      setNewPassword(password);
      await copyText(password, t('confirm.done'));
    } catch (failure) {
      setError(describeApiError(failure, t));
    }
  };

  return (
    <Box sx={{ maxWidth: 420, mx: 'auto', p: { xs: 2, sm: 3 } }}>
      <Paper sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={2}>
          <Typography variant="h5" component="h1">
            {t('confirm.title')}
          </Typography>
          {!linkValid ? (
            <Alert severity="error">{t('confirm.invalidLink')}</Alert>
          ) : (
            <TextField
              label={t('confirm.email')}
              value={email}
              slotProps={{ htmlInput: { readOnly: true } }}
              fullWidth
            />
          )}
          {newPassword !== null && (
            <>
              <TextField
                label={t('confirm.newPassword')}
                value={newPassword}
                slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'new-password' } }}
                fullWidth
              />
              <Alert severity="success">{t('confirm.newPasswordHint')}</Alert>
              <Stack direction="row" spacing={1}>
                <Button variant="outlined" onClick={() => void copyText(newPassword)}>
                  {t('confirm.copy')}
                </Button>
                <Button variant="contained" component={RouterLink} to="/login">
                  {t('confirm.toLogin')}
                </Button>
              </Stack>
            </>
          )}
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          {linkValid && newPassword === null && (
            <Button variant="contained" size="large" disabled={isLoading} onClick={() => void confirm()}>
              {t('confirm.submit')}
            </Button>
          )}
        </Stack>
      </Paper>
    </Box>
  );
}
