import { useEffect, useRef } from 'react';
import { Alert, Box, CircularProgress, Stack, Typography } from '@mui/material';
import { useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSystemStatus } from '../../provider/use-system-status';
import { CHAT_NAMESPACE, chatLocales } from './chat-locales';
import { chat2LinkUrl, parseChats, safeChatUrl, serverAddressOf } from '../../lib/chat-links';
import { useChatKey } from './use-chat-key';

/** The first configured chat link (`chat_link`, else the first of `chats`). */
export function firstChatLink(status: { chat_link?: unknown; chats?: unknown } | null | undefined): string {
  if (typeof status?.chat_link === 'string' && status.chat_link.trim() !== '') {
    return status.chat_link.trim();
  }
  return parseChats(status?.chats)[0]?.url ?? '';
}

/** `/chat2link`: goes to the external chat with an enabled token's key and this server's address. */
export function Chat2LinkPage() {
  const { t } = useFeatureTranslation(CHAT_NAMESPACE, chatLocales);
  const notify = useNotify();
  const { status, isLoading } = useSystemStatus();
  const base = firstChatLink(status);
  const missing = !isLoading && status !== null && status !== undefined && base === '';
  const key = useChatKey(!missing && base !== '');
  const done = useRef(false);
  const url =
    key.state === 'ready' ? safeChatUrl(chat2LinkUrl(base, key.key, serverAddressOf(status))) : null;
  const badLink = key.state === 'ready' && url === null;

  useEffect(() => {
    if (done.current) return;
    if (missing) {
      done.current = true;
      notify(t('notConfigured'), 'error');
    } else if (badLink) {
      done.current = true;
      notify(t('configError'), 'error');
    } else if (url) {
      done.current = true;
      window.location.href = url;
    }
  }, [missing, badLink, url, notify, t]);

  if (missing || badLink || key.state === 'failed') {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="error">
          {missing
            ? t('notConfigured')
            : badLink
              ? t('configError')
              : key.state === 'failed'
                ? key.message
                : ''}
        </Alert>
      </Box>
    );
  }
  return (
    <Stack spacing={2} sx={{ p: 3, alignItems: 'center' }}>
      <CircularProgress aria-label={t('redirecting')} />
      <Typography>{t('redirecting')}</Typography>
    </Stack>
  );
}
