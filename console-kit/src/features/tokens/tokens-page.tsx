import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  LinearProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import dayjs from 'dayjs';
import { describeApiError } from '../../api/describe-api-error';
import { useQuotaFormat } from '../../format/use-quota-format';
import { useCopyText } from '../../provider/clipboard';
import { useConsoleStorage, useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSystemStatus } from '../../provider/use-system-status';
import { fillChatLink, parseChats, safeChatUrl, serverAddressOf, type ChatLink } from '../chat/chat-links';
import { ConfirmDialog } from './confirm-dialog';
import { TokenDrawer } from './token-drawer';
import { PAGE_SIZE_OPTIONS, tokenStatusName, NEVER_EXPIRES } from './token-rules';
import {
  useDeleteTokenMutation,
  useDeleteTokensMutation,
  useFetchTokenKeyMutation,
  useListTokensQuery,
  useSetTokenStatusMutation,
  type Token,
} from './tokens-api';
import { TOKENS_NAMESPACE, tokensLocales } from './tokens-locales';

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

const PAGE_SIZE_KEY = 'page-size';
const STATUS_COLORS = {
  enabled: 'success',
  limited: 'info',
  disabled: 'default',
  expired: 'warning',
  exhausted: 'error',
  unknown: 'default',
} as const;

function storedPageSize(value: string | null): number {
  const size = Number(value);
  return (PAGE_SIZE_OPTIONS as readonly number[]).includes(size) ? size : 10;
}

function timeText(seconds: number): string {
  return dayjs(seconds * 1000).format('YYYY-MM-DD HH:mm:ss');
}

type Pending = { kind: 'delete'; token: Token } | { kind: 'batch'; ids: number[] };

/** The API tokens screen (`/token`): banner, search, table, drawer, copy, chat links, actions. */
export function TokensPage() {
  const { t } = useFeatureTranslation(TOKENS_NAMESPACE, tokensLocales);
  const storage = useConsoleStorage();
  const notify = useNotify();
  const copyText = useCopyText();
  const { status } = useSystemStatus();
  const { formatQuota } = useQuotaFormat();
  const [pageSize, setPageSize] = useState(() => storedPageSize(storage.getItem(PAGE_SIZE_KEY)));
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [tokenText, setTokenText] = useState('');
  const [filters, setFilters] = useState({ keyword: '', token: '' });
  const [selected, setSelected] = useState<number[]>([]);
  const [drawer, setDrawer] = useState<number | 'new' | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const list = useListTokensQuery({ ...filters, page, pageSize });
  const [setStatus] = useSetTokenStatusMutation();
  const [deleteToken, deleting] = useDeleteTokenMutation();
  const [deleteTokens, batchDeleting] = useDeleteTokensMutation();
  const [fetchKey] = useFetchTokenKeyMutation();
  const chats = parseChats(status?.chats);
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  const search = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setSelected([]);
    setFilters({ keyword, token: tokenText });
  };

  const fullKey = async (token: Token): Promise<string | null> => {
    try {
      return (await fetchKey(token.id).unwrap()).key;
    } catch (failure) {
      notify(describeApiError(failure, t), 'error');
      return null;
    }
  };

  const copyKey = async (token: Token) => {
    const key = await fullKey(token);
    if (key) await copyText(key, t('actions.copied'));
  };

  const openChat = async (token: Token, chat: ChatLink) => {
    // Open the tab now (inside the click) so the browser does not block it, then point it at the link.
    const tab = window.open('', '_blank');
    const key = await fullKey(token);
    if (!key) {
      tab?.close();
      return;
    }
    const url = safeChatUrl(fillChatLink(chat.url, key, serverAddressOf(status)));
    if (!url) {
      tab?.close();
      notify(t('chat.configError'), 'error');
      return;
    }
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else {
      window.open(url, '_blank', 'noopener');
    }
  };

  const changeStatus = async (token: Token, next: 1 | 2) => {
    try {
      await setStatus({ id: token.id, status: next }).unwrap();
      notify(t('actions.success'), 'success');
    } catch (failure) {
      notify(describeApiError(failure, t), 'error');
    }
  };

  const confirm = async () => {
    const current = pending;
    setPending(null);
    if (!current) return;
    try {
      if (current.kind === 'delete') {
        await deleteToken(current.token.id).unwrap();
        notify(t('actions.deleted'), 'success');
      } else {
        const count = await deleteTokens(current.ids).unwrap();
        notify(t('batchDeleted', { count }), 'success');
      }
      setSelected([]);
    } catch (failure) {
      notify(describeApiError(failure, t), 'error');
    }
  };

  const allSelected = items.length > 0 && items.every((token) => selected.includes(token.id));
  const toggle = (id: number) =>
    setSelected((current) => (current.includes(id) ? current.filter((x) => x !== id) : [...current, id]));

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {t('title')}
        </Typography>
        <Alert severity="warning" data-testid="token-warning">
          {t('warning')}
        </Alert>
        <Paper component="form" role="search" onSubmit={search} sx={{ p: 2 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <TextField
              label={t('search.keyword')}
              placeholder={t('search.keywordPlaceholder')}
              name="keyword"
              size="small"
              value={keyword}
              onChange={(event) => setKeyword(event.target.value)}
              sx={{ flexGrow: 1 }}
            />
            <TextField
              label={t('search.token')}
              placeholder={t('search.tokenPlaceholder')}
              name="token"
              size="small"
              value={tokenText}
              onChange={(event) => setTokenText(event.target.value)}
              sx={{ flexGrow: 1 }}
            />
            <Button type="submit" variant="contained">
              {t('search.submit')}
            </Button>
            <Button variant="outlined" onClick={() => setDrawer('new')}>
              {t('add')}
            </Button>
            <Button
              variant="outlined"
              color="error"
              disabled={batchDeleting.isLoading}
              onClick={() =>
                selected.length === 0
                  ? notify(t('selectFirst'), 'warning')
                  : setPending({ kind: 'batch', ids: selected })
              }
            >
              {t('batchDelete')}
            </Button>
          </Stack>
        </Paper>

        {list.isError && <Alert severity="error">{describeApiError(list.error, t, t('loadFailed'))}</Alert>}

        <Paper>
          {list.isFetching && <LinearProgress />}
          <TableContainer>
            <Table size="small" aria-label={t('title')} sx={{ '& th': { whiteSpace: 'nowrap' } }}>
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={allSelected}
                      indeterminate={!allSelected && selected.length > 0}
                      onChange={() => setSelected(allSelected ? [] : items.map((token) => token.id))}
                      slotProps={{ input: { 'aria-label': t('columns.select') } }}
                    />
                  </TableCell>
                  <TableCell>{t('columns.name')}</TableCell>
                  <TableCell>{t('columns.status')}</TableCell>
                  <TableCell>{t('columns.used')}</TableCell>
                  <TableCell>{t('columns.remain')}</TableCell>
                  <TableCell>{t('columns.group')}</TableCell>
                  <TableCell>{t('columns.created')}</TableCell>
                  <TableCell>{t('columns.expires')}</TableCell>
                  <TableCell>{t('columns.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {items.map((token) => (
                  <TokenRow
                    key={token.id}
                    token={token}
                    t={t}
                    chats={chats}
                    formatQuota={formatQuota}
                    selected={selected.includes(token.id)}
                    busy={deleting.isLoading}
                    onToggle={() => toggle(token.id)}
                    onCopy={() => void copyKey(token)}
                    onChat={(chat) => void openChat(token, chat)}
                    onStatus={(next) => void changeStatus(token, next)}
                    onEdit={() => setDrawer(token.id)}
                    onDelete={() => setPending({ kind: 'delete', token })}
                  />
                ))}
                {!list.isFetching && items.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={9} align="center">
                      {t('empty')}
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={total}
            page={Math.max(0, page - 1)}
            rowsPerPage={pageSize}
            rowsPerPageOptions={[...PAGE_SIZE_OPTIONS]}
            onPageChange={(_event, next) => {
              setSelected([]);
              setPage(next + 1);
            }}
            onRowsPerPageChange={(event) => {
              const next = storedPageSize(event.target.value);
              storage.setItem(PAGE_SIZE_KEY, String(next));
              setPageSize(next);
              setPage(1);
            }}
            labelRowsPerPage={t('pagination.rowsPerPage')}
            labelDisplayedRows={({ from, to, count }) => t('pagination.displayed', { from, to, count })}
          />
        </Paper>
      </Stack>

      <TokenDrawer target={drawer} onClose={() => setDrawer(null)} />
      <ConfirmDialog
        open={pending !== null}
        title={t('actions.confirmTitle')}
        message={
          pending?.kind === 'delete'
            ? t('actions.deleteConfirm', { name: pending.token.name })
            : pending
              ? t('batchDeleteConfirm', { count: pending.ids.length })
              : ''
        }
        confirmLabel={t('actions.confirm')}
        cancelLabel={t('actions.cancel')}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirm()}
      />
    </Box>
  );
}

interface TokenRowProps {
  token: Token;
  t: Translate;
  chats: ChatLink[];
  formatQuota: (quota: number) => string;
  selected: boolean;
  busy: boolean;
  onToggle: () => void;
  onCopy: () => void;
  onChat: (chat: ChatLink) => void;
  onStatus: (next: 1 | 2) => void;
  onEdit: () => void;
  onDelete: () => void;
}

function TokenRow(props: TokenRowProps) {
  const { token, t, chats, formatQuota, selected, busy } = props;
  const status = tokenStatusName(token);
  const statusChip = <Chip size="small" color={STATUS_COLORS[status]} label={t(`status.${status}`)} />;
  return (
    <TableRow data-testid={`token-row-${token.id}`} selected={selected} hover>
      <TableCell padding="checkbox">
        <Checkbox
          checked={selected}
          onChange={props.onToggle}
          slotProps={{ input: { 'aria-label': `${t('columns.select')} ${token.name}` } }}
        />
      </TableCell>
      <TableCell>
        <Typography variant="body2">{token.name}</Typography>
        <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
          sk-{token.key}
        </Typography>
      </TableCell>
      <TableCell>
        {status === 'limited' ? (
          <Tooltip title={token.model_limits.split(',').filter(Boolean).join(', ')}>{statusChip}</Tooltip>
        ) : (
          statusChip
        )}
      </TableCell>
      <TableCell>{formatQuota(token.used_quota)}</TableCell>
      <TableCell data-testid="token-remain">
        {token.unlimited_quota ? t('unlimited') : formatQuota(token.remain_quota)}
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        {token.group ? <Chip size="small" label={token.group} /> : t('defaultGroup')}
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{timeText(token.created_time)}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        {token.expired_time === NEVER_EXPIRES ? t('never') : timeText(token.expired_time)}
      </TableCell>
      <TableCell>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
          <Button size="small" onClick={props.onCopy}>
            {t('actions.copy')}
          </Button>
          {token.status === 1 &&
            chats.map((chat) => (
              <Button key={chat.name} size="small" onClick={() => props.onChat(chat)}>
                {chat.name}
              </Button>
            ))}
          {token.status === 1 ? (
            <Button size="small" color="warning" onClick={() => props.onStatus(2)}>
              {t('actions.disable')}
            </Button>
          ) : (
            <Button size="small" color="success" onClick={() => props.onStatus(1)}>
              {t('actions.enable')}
            </Button>
          )}
          <Button size="small" onClick={props.onEdit}>
            {t('actions.edit')}
          </Button>
          <Button size="small" color="error" disabled={busy} onClick={props.onDelete}>
            {t('actions.delete')}
          </Button>
        </Stack>
      </TableCell>
    </TableRow>
  );
}
