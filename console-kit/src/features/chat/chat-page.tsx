import { useEffect, useMemo, useRef } from 'react';
import { useParams } from 'react-router';
import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSystemStatus } from '../../provider/use-system-status';
import { CHAT_NAMESPACE, chatLocales } from './chat-locales';
import { fillChatLink, parseChats, safeChatUrl, serverAddressOf } from '../../lib/chat-links';
import { useChatKey } from './use-chat-key';

/** Which configured link `/chat/{id}` means: the index (default 0), or null when there is no such link. */
export function chatIndexOf(param: string | undefined, count: number): number | null {
  const index = param === undefined || param === '' ? 0 : Number(param);
  return Number.isInteger(index) && index >= 0 && index < count ? index : null;
}

/** `/chat/{id}`: the configured chat link, filled with an enabled token's key, in a frame. */
export function ChatPage() {
  const { t } = useFeatureTranslation(CHAT_NAMESPACE, chatLocales);
  const { id } = useParams();
  const notify = useNotify();
  const { status } = useSystemStatus();
  const links = useMemo(() => parseChats(status?.chats), [status?.chats]);
  const index = chatIndexOf(id, links.length);
  // A `chats` value that is not a list cannot be read at all (spec: 'Chat data parse failed').
  const parseFailed = status?.chats !== undefined && status?.chats !== null && !Array.isArray(status.chats);
  const configError = !parseFailed && status !== null && status !== undefined && index === null;
  const key = useChatKey(!parseFailed && !configError && index !== null);
  const told = useRef(false);

  const url =
    key.state === 'ready' && index !== null
      ? safeChatUrl(fillChatLink(links[index].url, key.key, serverAddressOf(status)))
      : null;
  const badLink = key.state === 'ready' && url === null;

  useEffect(() => {
    if ((parseFailed || configError || badLink) && !told.current) {
      told.current = true;
      notify(parseFailed ? t('parseFailed') : t('configError'), 'error');
    }
  }, [parseFailed, configError, badLink, notify, t]);

  if (parseFailed) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="error">{t('parseFailed')}</Alert>
      </Box>
    );
  }

  if (configError || badLink) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="error">{t('configError')}</Alert>
      </Box>
    );
  }
  if (key.state === 'failed') {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="error">{key.message}</Alert>
      </Box>
    );
  }
  if (!url) {
    return (
      <Stack spacing={2} sx={{ p: 3, alignItems: 'center' }}>
        <CircularProgress aria-label={t('loading')} />
        <Typography>{t('loading')}</Typography>
      </Stack>
    );
  }
  return (
    <Box sx={{ position: 'relative', height: 'calc(100vh - 56px)', width: '100%' }}>
      <Button
        size="small"
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        sx={{ position: 'absolute', right: 8, top: 4, zIndex: 1 }}
      >
        {t('openInNewTab')}
      </Button>
      <Box
        component="iframe"
        title={t('frameTitle')}
        src={url}
        data-testid="chat-frame"
        sx={{ border: 0, width: '100%', height: '100%', display: 'block' }}
      />
    </Box>
  );
}
