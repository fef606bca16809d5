import { useMemo, useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { renderMarkdown } from '../../format/safe-html';
import { useConsoleStorage } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { StorageKeys } from '../../provider/console-storage';
import { useGetNoticeQuery } from './notice-api';
import { NOTICE_NAMESPACE, noticeLocales } from './notice-locales';

/** The visitor's local date as YYYY-MM-DD: "close for today" lasts until local midnight. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export interface NoticeDialogProps {
  /** The date "close for today" is compared with; now by default. */
  today?: Date;
}

/**
 * Decision 40: the site notice (markdown or HTML, sanitized) opens on load unless it is empty or was
 * closed for today. "Close" hides it until the next load.
 */
export function NoticeDialog({ today }: NoticeDialogProps) {
  const { t } = useFeatureTranslation(NOTICE_NAMESPACE, noticeLocales);
  const storage = useConsoleStorage();
  const { data: notice } = useGetNoticeQuery();
  const [dismissed, setDismissed] = useState(false);
  const day = localDay(today ?? new Date());
  const closedToday = storage.getItem(StorageKeys.noticeClosedDate) === day;
  const html = useMemo(() => (notice?.trim() ? renderMarkdown(notice) : ''), [notice]);
  const open = Boolean(html) && !dismissed && !closedToday;

  const closeToday = () => {
    storage.setItem(StorageKeys.noticeClosedDate, day);
    setDismissed(true);
  };

  return (
    <Dialog
      open={open}
      onClose={() => setDismissed(true)}
      fullWidth
      maxWidth="sm"
      aria-labelledby="gatehouse-notice-title"
    >
      <DialogTitle id="gatehouse-notice-title">{t('title')}</DialogTitle>
      <DialogContent dividers>
        <Box
          data-testid="notice-content"
          sx={{ '& img': { maxWidth: '100%' }, '& a': { color: 'primary.main' } }}
          dangerouslySetInnerHTML={{ __html: html }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={closeToday}>{t('closeToday')}</Button>
        <Button variant="contained" onClick={() => setDismissed(true)}>
          {t('close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
