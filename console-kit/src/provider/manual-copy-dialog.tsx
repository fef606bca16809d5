import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The text the clipboard refused, selected in a read-only field for copying by hand. */
export function ManualCopyDialog({ text, onClose }: { text: string | null; onClose: () => void }) {
  const { t } = useTranslation('common');
  return (
    <Dialog open={text !== null} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('copy.manualTitle')}</DialogTitle>
      <DialogContent>
        <TextField
          value={text ?? ''}
          fullWidth
          multiline
          autoFocus
          slotProps={{ htmlInput: { readOnly: true, 'aria-label': t('copy.manualTitle') } }}
          onFocus={(event) => event.target.select()}
          sx={{ mt: 1 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
