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
  Typography,
} from '@mui/material';
import { useFeatureTranslation } from '../provider/console-i18n';
import { AUTH_NAMESPACE, authLocales } from './auth-locales';

export interface WechatCodeDialogProps {
  open: boolean;
  title: string;
  /** The official account's QR code image (status.wechat_qrcode). */
  qrCodeUrl?: string;
  onClose: () => void;
  /** Sends the code; resolves when done (the dialog closes), rejects with the text to show. */
  onSubmit: (code: string) => Promise<void>;
}

/** Scan-code sign-in or binding: scan, follow, send the keyword, type the code (valid 3 minutes). */
export function WechatCodeDialog({ open, title, qrCodeUrl, onClose, onSubmit }: WechatCodeDialogProps) {
  const { t } = useFeatureTranslation(AUTH_NAMESPACE, authLocales);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(t('wechat.codeRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(code.trim());
      setCode('');
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="gatehouse-wechat-title">
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id="gatehouse-wechat-title">{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ alignItems: 'center', pt: 1 }}>
            {qrCodeUrl && (
              <Box
                component="img"
                src={qrCodeUrl}
                alt={t('wechat.qrAlt')}
                sx={{ width: 200, height: 200, objectFit: 'contain' }}
              />
            )}
            <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
              {t('wechat.instructions')}
            </Typography>
            <TextField
              label={t('wechat.code')}
              name="code"
              value={code}
              autoFocus
              onChange={(event) => setCode(event.target.value)}
              fullWidth
            />
            {error && (
              <Alert severity="error" sx={{ width: '100%' }}>
                {error}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('common:actions.submit')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
