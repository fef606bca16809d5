import { useState } from 'react';
import { useLocation } from 'react-router';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useSafeHtml } from '../../format/use-safe-html';
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

/** Sign-in and account forms: the notice never covers them. */
const FORM_PATHS = ['/login', '/register', '/reset', '/user/reset', '/setup', '/oauth/'];

export function isFormPath(pathname: string): boolean {
  return FORM_PATHS.some((path) =>
    path.endsWith('/') ? pathname.startsWith(path) : pathname === path || pathname === `${path}/`,
  );
}

/** The notice text this browser tab has already shown (sessionStorage, so a new tab shows it again). */
const SEEN_KEY = 'gatehouse-notice-seen';

function seenInThisTab(): string | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage.getItem(SEEN_KEY);
  } catch {
    return null;
  }
}

function markSeenInThisTab(notice: string): void {
  try {
    window.sessionStorage.setItem(SEEN_KEY, notice);
  } catch {
    // No session storage: the notice may show again on the next load.
  }
}

export interface NoticeDialogProps {
  /** The date "close for today" is compared with; now by default. */
  today?: Date;
}

/**
 * docs/decisions.md#home-notice-footer: the site notice (markdown or HTML, sanitized) opens on load unless it is empty or was
 * closed for today. It opens once per browser tab for the same text (a reload or another page does not
 * bring it back; a changed notice does) and never over the sign-in and account forms.
 */
export function NoticeDialog({ today }: NoticeDialogProps) {
  const { t } = useFeatureTranslation(NOTICE_NAMESPACE, noticeLocales);
  const storage = useConsoleStorage();
  const { data: notice } = useGetNoticeQuery();
  const { pathname } = useLocation();
  const [dismissed, setDismissed] = useState(false);
  const day = localDay(today ?? new Date());
  const closedToday = storage.getItem(StorageKeys.noticeClosedDate) === day;
  const html = useSafeHtml(notice?.trim() ? notice : '', 'markdown');
  const open =
    Boolean(html) && !dismissed && !closedToday && !isFormPath(pathname) && seenInThisTab() !== notice;

  const close = () => {
    if (notice) {
      markSeenInThisTab(notice);
    }
    setDismissed(true);
  };
  const closeToday = () => {
    storage.setItem(StorageKeys.noticeClosedDate, day);
    setDismissed(true);
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="gatehouse-notice-title">
      <DialogTitle id="gatehouse-notice-title">{t('title')}</DialogTitle>
      <DialogContent dividers>
        <Box
          data-testid="notice-content"
          sx={{ typography: 'body1', '& img': { maxWidth: '100%' }, '& a': { color: 'primary.main' } }}
          dangerouslySetInnerHTML={{ __html: html }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={closeToday}>{t('closeToday')}</Button>
        <Button variant="contained" onClick={close}>
          {t('close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
