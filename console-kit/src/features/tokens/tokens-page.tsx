import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Chip,
  Stack,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import dayjs from 'dayjs';
import { useApiAction } from '../../api/use-api-action';
import { useQuotaFormat } from '../../format/use-quota-format';
import type { BudgetStatus } from '../../lib/budget-rules';
import { BudgetUsage } from '../../components/budget-usage';
import { useGetTokenBudgetsQuery } from '../../lib/budgets-api';
import { useCopyText } from '../../provider/clipboard';
import { useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSystemStatus } from '../../provider/use-system-status';
import { fillChatLink, parseChats, safeChatUrl, serverAddressOf, type ChatLink } from '../../lib/chat-links';
import { ConfirmDialog } from '../../components/confirm-dialog';
import {
  ListPageLayout,
  ListSearchBar,
  ListSearchField,
  ListTable,
  usePaging,
} from '../../components/list-page';
import { TokenDrawer } from './token-drawer';
import { tokenStatusName, NEVER_EXPIRES } from './token-rules';
import {
  useDeleteTokenMutation,
  useDeleteTokensMutation,
  useFetchTokenKeyMutation,
  useListTokensQuery,
  useSetTokenStatusMutation,
  type Token,
} from '../../lib/tokens-api';
import { TOKENS_NAMESPACE, tokensLocales } from './tokens-locales';

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

const STATUS_COLORS = {
  enabled: 'success',
  limited: 'info',
  disabled: 'default',
  expired: 'warning',
  exhausted: 'error',
  unknown: 'default',
} as const;

function timeText(seconds: number): string {
  return dayjs(seconds * 1000).format('YYYY-MM-DD HH:mm:ss');
}

const COLUMNS = [
  'name',
  'status',
  'used',
  'remain',
  'budget',
  'group',
  'created',
  'expires',
  'actions',
] as const;

type Pending = { kind: 'delete'; token: Token } | { kind: 'batch'; ids: number[] };

/** The API tokens screen (`/token`): banner, search, table, drawer, copy, chat links, actions. */
export function TokensPage() {
  const { t } = useFeatureTranslation(TOKENS_NAMESPACE, tokensLocales);
  const notify = useNotify();
  const copyText = useCopyText();
  const { status } = useSystemStatus();
  const { formatQuota } = useQuotaFormat();
  const paging = usePaging();
  const { page, pageSize, setPage } = paging;
  const [keyword, setKeyword] = useState('');
  const [tokenText, setTokenText] = useState('');
  const [filters, setFilters] = useState({ keyword: '', token: '' });
  const [selected, setSelected] = useState<number[]>([]);
  const [drawer, setDrawer] = useState<number | 'new' | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const list = useListTokensQuery({ ...filters, page, pageSize });
  const [setStatus] = useSetTokenStatusMutation();
  const [deleteToken] = useDeleteTokenMutation();
  const [deleteTokens] = useDeleteTokensMutation();
  const [fetchKey] = useFetchTokenKeyMutation();
  const action = useApiAction(t);
  const deleting = useApiAction(t);
  const batchDeleting = useApiAction(t);
  const chats = parseChats(status?.chats);
  const items = list.data?.items ?? [];
  // Used and remaining per period of the listed tokens that have a budget.
  const budgetIds = items.filter((token) => token.budget).map((token) => token.id);
  const budgets = useGetTokenBudgetsQuery(budgetIds, { skip: budgetIds.length === 0 });

  const search = () => {
    setPage(1);
    setSelected([]);
    setFilters({ keyword, token: tokenText });
  };

  const fullKey = async (token: Token): Promise<string | undefined> =>
    (await action.answer(() => fetchKey(token.id).unwrap()))?.key;

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
    const url = safeChatUrl(fillChatLink(chat.url, key, serverAddressOf(status)), { appLinks: true });
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

  const changeStatus = (token: Token, next: 1 | 2) =>
    action.run(() => setStatus({ id: token.id, status: next }).unwrap(), { success: t('actions.success') });

  const confirm = async () => {
    const current = pending;
    setPending(null);
    if (!current) return;
    const deleted =
      current.kind === 'delete'
        ? await deleting.run(() => deleteToken(current.token.id).unwrap(), { success: t('actions.deleted') })
        : await batchDeleting.run(() => deleteTokens(current.ids).unwrap(), {
            success: (count) => t('batchDeleted', { count }),
          });
    if (deleted) setSelected([]);
  };

  const allSelected = items.length > 0 && items.every((token) => selected.includes(token.id));
  const toggle = (id: number) =>
    setSelected((current) => (current.includes(id) ? current.filter((x) => x !== id) : [...current, id]));

  const rowProps = (token: Token): TokenRowProps => ({
    token,
    t,
    chats,
    formatQuota,
    budget: budgets.data?.[String(token.id)],
    selected: selected.includes(token.id),
    busy: deleting.busy,
    onToggle: () => toggle(token.id),
    onCopy: () => void copyKey(token),
    onChat: (chat) => void openChat(token, chat),
    onStatus: (next) => void changeStatus(token, next),
    onEdit: () => setDrawer(token.id),
    onDelete: () => setPending({ kind: 'delete', token }),
  });

  return (
    <>
      <ListPageLayout title={t('title')}>
        <Alert severity="warning" data-testid="token-warning">
          {t('warning')}
        </Alert>
        <ListSearchBar
          t={t}
          onSearch={search}
          actions={
            <>
              <Button variant="outlined" onClick={() => setDrawer('new')}>
                {t('add')}
              </Button>
              <Button
                variant="outlined"
                color="error"
                disabled={batchDeleting.busy}
                onClick={() =>
                  selected.length === 0
                    ? notify(t('selectFirst'), 'warning')
                    : setPending({ kind: 'batch', ids: selected })
                }
              >
                {t('batchDelete')}
              </Button>
            </>
          }
        >
          <ListSearchField t={t} name="keyword" value={keyword} onChange={setKeyword} />
          <ListSearchField t={t} name="token" value={tokenText} onChange={setTokenText} />
        </ListSearchBar>

        <ListTable
          t={t}
          label={t('title')}
          columns={COLUMNS}
          leadingHead={
            <TableCell padding="checkbox">
              <Checkbox
                checked={allSelected}
                indeterminate={!allSelected && selected.length > 0}
                onChange={() => setSelected(allSelected ? [] : items.map((token) => token.id))}
                slotProps={{ input: { 'aria-label': t('columns.select') } }}
              />
            </TableCell>
          }
          cards={items.map((token) => (
            <TokenCard key={token.id} {...rowProps(token)} />
          ))}
          query={list}
          paging={paging}
          onPageChange={() => setSelected([])}
        >
          {items.map((token) => (
            <TokenRow key={token.id} {...rowProps(token)} />
          ))}
        </ListTable>
      </ListPageLayout>

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
    </>
  );
}

interface TokenRowProps {
  token: Token;
  t: Translate;
  chats: ChatLink[];
  formatQuota: (quota: number) => string;
  /** The token's periodic budget and its use (none when it has no budget). */
  budget?: BudgetStatus;
  selected: boolean;
  busy: boolean;
  onToggle: () => void;
  onCopy: () => void;
  onChat: (chat: ChatLink) => void;
  onStatus: (next: 1 | 2) => void;
  onEdit: () => void;
  onDelete: () => void;
}

function TokenStatusChip({ token, t }: { token: Token; t: Translate }) {
  const status = tokenStatusName(token);
  const chip = <Chip size="small" color={STATUS_COLORS[status]} label={t(`status.${status}`)} />;
  return status === 'limited' ? (
    <Tooltip title={token.model_limits.split(',').filter(Boolean).join(', ')}>{chip}</Tooltip>
  ) : (
    chip
  );
}

function TokenActions(props: TokenRowProps) {
  const { token, t, chats, busy } = props;
  return (
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
  );
}

function remainText({ token, t, formatQuota }: TokenRowProps): string {
  return token.unlimited_quota ? t('unlimited') : formatQuota(token.remain_quota);
}

function expiryText({ token, t }: TokenRowProps): string {
  return token.expired_time === NEVER_EXPIRES ? t('never') : timeText(token.expired_time);
}

function TokenRow(props: TokenRowProps) {
  const { token, t, formatQuota, selected } = props;
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
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}
        >
          {`sk-${token.key}`}
        </Typography>
      </TableCell>
      <TableCell>
        <TokenStatusChip token={token} t={t} />
      </TableCell>
      <TableCell>{formatQuota(token.used_quota)}</TableCell>
      <TableCell data-testid="token-remain">{remainText(props)}</TableCell>
      <TableCell data-testid="token-budget">
        {props.budget ? <BudgetUsage status={props.budget} compact /> : '—'}
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        {token.group ? <Chip size="small" label={token.group} /> : t('defaultGroup')}
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{timeText(token.created_time)}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{expiryText(props)}</TableCell>
      <TableCell>
        <TokenActions {...props} />
      </TableCell>
    </TableRow>
  );
}

/**
 * A token on a phone: name, key, status, remaining and used quota, expiry and the actions, wrapped to
 * the screen's width (group and creation time are left to the edit drawer).
 */
function TokenCard(props: TokenRowProps) {
  const { token, t, formatQuota, selected } = props;
  return (
    <Card variant="outlined" data-testid={`token-card-${token.id}`} sx={{ minWidth: 0 }}>
      <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Checkbox
            size="small"
            checked={selected}
            onChange={props.onToggle}
            slotProps={{ input: { 'aria-label': `${t('columns.select')} ${token.name}` } }}
            sx={{ p: 0.5 }}
          />
          <Typography variant="subtitle2" sx={{ flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
            {token.name}
          </Typography>
          <TokenStatusChip token={token} t={t} />
        </Stack>
        <Typography
          variant="caption"
          color="text.secondary"
          component="div"
          sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', mt: 0.5 }}
        >
          {`sk-${token.key}`}
        </Typography>
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: 'auto 1fr',
            columnGap: 1,
            rowGap: 0.25,
            m: 0,
            mt: 1,
            '& dt': { color: 'text.secondary' },
            '& dd': { m: 0, overflowWrap: 'anywhere' },
            typography: 'body2',
          }}
        >
          <dt>{t('columns.remain')}</dt>
          <dd data-testid="token-remain">{remainText(props)}</dd>
          <dt>{t('columns.used')}</dt>
          <dd>{formatQuota(token.used_quota)}</dd>
          <dt>{t('columns.expires')}</dt>
          <dd>{expiryText(props)}</dd>
          {props.budget && props.budget.periods.length > 0 && (
            <>
              <dt>{t('columns.budget')}</dt>
              <dd data-testid="token-budget">
                <BudgetUsage status={props.budget} compact />
              </dd>
            </>
          )}
        </Box>
        <Box sx={{ mt: 1 }}>
          <TokenActions {...props} />
        </Box>
      </CardContent>
    </Card>
  );
}
