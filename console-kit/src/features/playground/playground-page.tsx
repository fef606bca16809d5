import { useEffect, useMemo, useReducer, useRef, useState, type KeyboardEvent } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Chip,
  CircularProgress,
  Drawer,
  MenuItem,
  Paper,
  Slider,
  Stack,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useSearchParams } from 'react-router';
import { renderMarkdown } from '../../format/safe-html';
import { useConsoleRuntime } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { groupDescription } from '../../format/group-description';
import { groupRatioColor } from '../../format/group-ratio';
import type { ConsoleRuntime } from '../../provider/console-runtime';
import { StorageKeys } from '../../provider/console-storage';
import { useSession } from '../../provider/use-session';
import { useGetPlaygroundGroupsQuery, useGetPlaygroundModelsQuery } from './playground-api';
import {
  buildChatRequest,
  ChatStreamError,
  chatReducer,
  initialChatState,
  parseMaxTokens,
  readChatStream,
  type ChatMessage,
  type PlaygroundSettings,
} from './playground-chat';
import { PLAYGROUND_NAMESPACE, playgroundLocales } from './playground-locales';

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

/** docs/decisions.md#playground-defaults: the model chosen first when the group offers it. */
export const DEFAULT_PLAYGROUND_MODEL = 'gpt-4o-mini';
const PANEL_WIDTH = 300;

/** The headers of a console call (the session's `New-Api-User`, or the mount's access token). */
function authHeaders(runtime: ConsoleRuntime): Record<string, string> {
  if (runtime.auth) {
    return {
      Authorization: `Bearer ${runtime.auth.accessToken}`,
      'New-Api-User': String(runtime.auth.userId),
    };
  }
  const user = runtime.storage.getJson<{ id?: number }>(StorageKeys.user);
  return user?.id !== undefined && user.id !== null ? { 'New-Api-User': String(user.id) } : {};
}

function failureText(failure: unknown, t: Translate): string {
  if (failure instanceof DOMException && failure.name === 'AbortError') {
    return t('errors.stopped');
  }
  if (failure instanceof ChatStreamError) {
    if (failure.status === 401) {
      return t('expired');
    }
    if (failure.message) {
      return failure.message;
    }
    return failure.status === null ? t('errors.cutOff') : `${t('errors.failed')} (${failure.status})`;
  }
  return t('errors.network');
}

/** `/playground`: try a model of one of the user's groups, streamed, billed to the user (docs/decisions.md#playground). */
export function PlaygroundPage() {
  const { t } = useFeatureTranslation(PLAYGROUND_NAMESPACE, playgroundLocales);
  const runtime = useConsoleRuntime();
  const { user } = useSession();
  const [searchParams] = useSearchParams();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const [panelOpen, setPanelOpen] = useState(false);

  const groups = useGetPlaygroundGroupsQuery();
  const groupNames = useMemo(() => Object.keys(groups.data ?? {}), [groups.data]);
  const [chosenGroup, setChosenGroup] = useState<string | null>(null);
  const group =
    chosenGroup ?? (user?.group && groupNames.includes(user.group) ? user.group : (groupNames[0] ?? ''));
  const models = useGetPlaygroundModelsQuery(group, { skip: !groups.isSuccess && !groups.isError });
  const modelNames = useMemo(() => models.data ?? [], [models.data]);
  const [chosenModel, setChosenModel] = useState<string | null>(null);
  const model =
    chosenModel && modelNames.includes(chosenModel)
      ? chosenModel
      : modelNames.includes(DEFAULT_PLAYGROUND_MODEL)
        ? DEFAULT_PLAYGROUND_MODEL
        : (modelNames[0] ?? '');

  const [temperature, setTemperature] = useState(0);
  const [maxTokensText, setMaxTokensText] = useState('0');
  const [systemPrompt, setSystemPrompt] = useState(() => t('defaultSystemPrompt'));
  const [input, setInput] = useState('');
  const [chat, dispatch] = useReducer(chatReducer, initialChatState);
  const inFlight = useRef<AbortController | null>(null);
  const scroller = useRef<HTMLDivElement | null>(null);

  useEffect(() => () => inFlight.current?.abort(), []);
  useEffect(() => {
    const box = scroller.current;
    if (box) {
      box.scrollTop = box.scrollHeight;
    }
  }, [chat.messages]);

  const busy = chat.pendingId !== null;

  const send = async () => {
    const text = input.trim();
    if (!text || busy || !model) {
      return;
    }
    const next = chatReducer(chat, { type: 'send', text });
    const id = next.pendingId;
    if (id === null) {
      return;
    }
    dispatch({ type: 'send', text });
    setInput('');
    const settings: PlaygroundSettings = {
      model,
      group,
      temperature,
      maxTokens: parseMaxTokens(maxTokensText),
      systemPrompt,
    };
    const controller = new AbortController();
    inFlight.current = controller;
    try {
      const response = await fetch(`${runtime.apiBase}/pg/chat/completions`, {
        method: 'POST',
        credentials: 'include',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'text/event-stream',
          'Cache-Control': 'no-store',
          ...authHeaders(runtime),
          ...(runtime.language() ? { 'Accept-Language': runtime.language() } : {}),
        },
        body: JSON.stringify(buildChatRequest(settings, next.messages)),
        signal: controller.signal,
      });
      await readChatStream(response, (piece) => dispatch({ type: 'delta', id, text: piece }));
      dispatch({ type: 'done', id });
    } catch (failure) {
      dispatch({ type: 'fail', id, error: failureText(failure, t) });
    } finally {
      if (inFlight.current === controller) {
        inFlight.current = null;
      }
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  const panel = (
    <Stack spacing={2.5} sx={{ p: 2, width: narrow ? 'min(85vw, 340px)' : PANEL_WIDTH }}>
      <Typography variant="h6" component="h2">
        {t('settings')}
      </Typography>
      <TextField
        select
        size="small"
        label={t('group')}
        value={groupNames.includes(group) ? group : ''}
        onChange={(event) => {
          setChosenGroup(event.target.value);
          setChosenModel(null);
        }}
        disabled={groupNames.length === 0}
        helperText={groups.isSuccess && groupNames.length === 0 ? t('noGroups') : undefined}
      >
        {groupNames.map((name) => {
          const desc = groupDescription(name, groups.data?.[name]?.desc, t);
          const ratio = groups.data?.[name]?.ratio;
          return (
            <MenuItem key={name} value={name}>
              {desc ? t('groupOption', { group: name, desc }) : name}
              {typeof ratio === 'number' && (
                <Chip
                  size="small"
                  variant="outlined"
                  color={groupRatioColor(ratio)}
                  label={`×${ratio}`}
                  sx={{ ml: 1 }}
                />
              )}
            </MenuItem>
          );
        })}
      </TextField>
      <Autocomplete
        size="small"
        options={modelNames}
        value={model || null}
        onChange={(_event, value) => setChosenModel(value)}
        loading={models.isFetching}
        noOptionsText={t('noModels')}
        renderInput={(params) => <TextField {...params} label={t('model')} />}
      />
      <Box>
        <Typography id="playground-temperature" variant="body2" gutterBottom>
          {temperature > 0 ? t('temperatureValue', { value: temperature }) : t('temperatureDefault')}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Slider
            aria-labelledby="playground-temperature"
            min={0.1}
            max={1}
            step={0.1}
            marks
            value={temperature > 0 ? temperature : 0.1}
            onChange={(_event, value) => setTemperature(Math.round(value * 10) / 10)}
            valueLabelDisplay="auto"
            sx={{ flexGrow: 1, mx: 1 }}
          />
          <Button size="small" disabled={temperature === 0} onClick={() => setTemperature(0)}>
            {t('resetTemperature')}
          </Button>
        </Stack>
      </Box>
      <TextField
        size="small"
        type="number"
        label={t('maxTokens')}
        value={maxTokensText}
        onChange={(event) => setMaxTokensText(event.target.value)}
        onBlur={() => setMaxTokensText(String(parseMaxTokens(maxTokensText)))}
        helperText={t('maxTokensHelp')}
        slotProps={{ htmlInput: { min: 0, step: 1 } }}
      />
      <TextField
        label={t('systemPrompt')}
        multiline
        minRows={4}
        maxRows={12}
        value={systemPrompt}
        onChange={(event) => setSystemPrompt(event.target.value)}
      />
    </Stack>
  );

  return (
    <Box sx={{ display: 'flex', minHeight: 'calc(100vh - 56px)', width: '100%' }}>
      {narrow ? (
        <Drawer open={panelOpen} onClose={() => setPanelOpen(false)} keepMounted>
          {panel}
        </Drawer>
      ) : (
        <Paper square variant="outlined" sx={{ flexShrink: 0, borderTop: 0, borderBottom: 0 }}>
          {panel}
        </Paper>
      )}
      <Stack sx={{ flexGrow: 1, minWidth: 0, p: { xs: 1, sm: 2 }, height: 'calc(100vh - 56px)' }} spacing={1}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
            {t('title')}
          </Typography>
          {narrow && (
            <Button variant="outlined" size="small" onClick={() => setPanelOpen((open) => !open)}>
              {panelOpen ? t('hideSettings') : t('showSettings')}
            </Button>
          )}
        </Stack>
        {searchParams.has('expired') && <Alert severity="error">{t('expired')}</Alert>}
        {groups.isError && <Alert severity="error">{t('errors.failed')}</Alert>}
        <Box
          ref={scroller}
          data-testid="chat-messages"
          sx={{ flexGrow: 1, overflowY: 'auto', minHeight: 0 }}
          aria-live="polite"
        >
          {chat.messages.length === 0 ? (
            <Typography color="text.secondary" sx={{ p: 2, textAlign: 'center' }}>
              {t('empty')}
            </Typography>
          ) : (
            <Stack spacing={1.5} sx={{ py: 1 }}>
              {chat.messages.map((message) => (
                <MessageBubble key={message.id} message={message} t={t} />
              ))}
            </Stack>
          )}
        </Box>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-end' } }}>
          <TextField
            label={t('input')}
            multiline
            maxRows={6}
            value={input}
            onChange={(event) => setInput(event.target.value)}
            onKeyDown={onKeyDown}
            sx={{ flexGrow: 1 }}
          />
          <Stack direction="row" spacing={1}>
            {busy ? (
              <Button variant="outlined" color="warning" onClick={() => inFlight.current?.abort()}>
                {t('stop')}
              </Button>
            ) : (
              <Button variant="contained" disabled={!input.trim() || !model} onClick={() => void send()}>
                {t('send')}
              </Button>
            )}
            <Button
              variant="outlined"
              disabled={busy || chat.messages.length === 0}
              onClick={() => dispatch({ type: 'clear' })}
            >
              {t('clear')}
            </Button>
          </Stack>
        </Stack>
      </Stack>
    </Box>
  );
}

const STATUS_COLORS = {
  loading: 'default',
  incomplete: 'info',
  complete: 'success',
  error: 'error',
} as const;

function MessageBubble({ message, t }: { message: ChatMessage; t: Translate }) {
  const mine = message.role === 'user';
  // Model output is untrusted: markdown through the kit's sanitizer, never raw HTML.
  const html = useMemo(() => (mine ? '' : renderMarkdown(message.content)), [mine, message.content]);
  return (
    <Box
      data-testid="chat-message"
      data-role={message.role}
      data-status={message.status}
      sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start' }}
    >
      <Paper
        variant="outlined"
        sx={{
          px: 1.5,
          py: 1,
          maxWidth: { xs: '92%', md: '80%' },
          minWidth: 0,
          overflowWrap: 'anywhere',
          bgcolor: mine ? 'action.selected' : 'background.paper',
        }}
      >
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
          <Typography variant="caption" sx={{ fontWeight: 600 }}>
            {mine ? t('you') : t('assistant')}
          </Typography>
          {!mine && (
            <Chip size="small" color={STATUS_COLORS[message.status]} label={t(`status.${message.status}`)} />
          )}
          {(message.status === 'loading' || message.status === 'incomplete') && (
            <CircularProgress size={12} />
          )}
        </Stack>
        {mine ? (
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{message.content}</Typography>
        ) : (
          <Box
            className="gatehouse-markdown"
            data-testid="chat-answer"
            sx={{ '& p': { my: 0.5 }, '& pre': { overflowX: 'auto' }, '& img': { maxWidth: '100%' } }}
            dangerouslySetInnerHTML={{ __html: html }}
          />
        )}
        {message.status === 'error' && message.error && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {message.error}
          </Alert>
        )}
      </Paper>
    </Box>
  );
}
