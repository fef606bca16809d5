import { useEffect, useState } from 'react';
import { Box, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSafeHtml } from '../format/use-safe-html';
import { useConsoleStorage } from '../provider/console-context';
import { StorageKeys } from '../provider/console-storage';
import { useSystemStatus } from '../provider/use-system-status';

/** docs/decisions.md#console-part-2-rules: the footer's custom HTML is looked for every 200 ms, up to 5 times. */
export const FOOTER_POLL_INTERVAL_MS = 200;
export const FOOTER_POLL_ATTEMPTS = 5;

export const PRODUCT_NAME = 'Gatehouse';

/**
 * The stored footer HTML; while there is none, looks again a few times, since the status that carries
 * it may still be on its way on the first load.
 */
function useStoredFooterHtml(): string {
  const storage = useConsoleStorage();
  const [html, setHtml] = useState(() => storage.getItem(StorageKeys.footerHtml) ?? '');
  useEffect(() => {
    if (html) {
      return undefined;
    }
    let attempts = 0;
    const timer = setInterval(() => {
      attempts += 1;
      const stored = storage.getItem(StorageKeys.footerHtml) ?? '';
      if (stored || attempts >= FOOTER_POLL_ATTEMPTS) {
        clearInterval(timer);
        if (stored) {
          setHtml(stored);
        }
      }
    }, FOOTER_POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [html, storage]);
  return html;
}

/** The project credit and version, or the admin's footer HTML (sanitized to the safe subset). */
export function ConsoleFooter() {
  const { t } = useTranslation('common');
  const { status } = useSystemStatus();
  const stored = useStoredFooterHtml();
  // The server's answer wins over the stored copy, also when an admin cleared the footer.
  const footerHtml = status && typeof status.footer_html === 'string' ? status.footer_html : stored;
  const safe = useSafeHtml(footerHtml ?? '', 'html');

  return (
    <Box
      component="footer"
      sx={{
        px: 2,
        py: 1.5,
        borderTop: 1,
        borderColor: 'divider',
        textAlign: 'center',
        color: 'text.secondary',
        fontSize: 14,
        '& a': { color: 'primary.main' },
        '& p': { my: 0.5 },
      }}
    >
      {safe ? (
        <Box data-testid="custom-footer" dangerouslySetInnerHTML={{ __html: safe }} />
      ) : (
        <Typography variant="body2" component="p" sx={{ m: 0 }}>
          {status?.system_name || PRODUCT_NAME}
          {status?.version ? ` ${status.version}` : ''} · {t('footer.poweredBy', { product: PRODUCT_NAME })} ·{' '}
          {t('footer.license')}
        </Typography>
      )}
    </Box>
  );
}
