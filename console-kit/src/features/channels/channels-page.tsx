import { Fragment, useState, type FormEvent, type KeyboardEvent } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  ButtonGroup,
  Checkbox,
  Chip,
  FormControlLabel,
  IconButton,
  LinearProgress,
  Menu,
  MenuItem,
  Paper,
  Stack,
  Switch,
  Tab,
  TableCell,
  TableRow,
  Tabs,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { describeApiError } from '../../api/describe-api-error';
import { UserRole } from '../../api/api-types';
import { formatCurrency } from '../../format/quota';
import { useQuotaFormat } from '../../format/use-quota-format';
import { ListPagination, usePaging } from '../../components/list-page';
import { ResponsiveTable, type PhoneColumn } from '../../components/responsive-table';
import { useConsoleStorage, useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSession } from '../../provider/use-session';
import { useDeepLink } from '../../components/deep-link';
import { ChannelDrawer } from './channel-drawer';
import {
  BatchTagDialog,
  ColumnSettingsDialog,
  CopyChannelDialog,
  TagEditDrawer,
  TestModelDialog,
  UpstreamDialog,
} from './channel-dialogs';
import {
  BALANCE_TYPES,
  channelStatusName,
  channelTypeName,
  COLUMN_KEYS,
  COLUMNS_STORAGE_KEY,
  formatTimestamp,
  ID_SORT_STORAGE_KEY,
  parseColumns,
  parsePriority,
  parseStatusInfo,
  parseWeight,
  RESPONSE_TIME_COLORS,
  responseTimeTone,
  splitList,
  TAG_MODE_STORAGE_KEY,
  tagFieldDisplay,
  type ColumnKey,
} from './channel-rules';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CHANNELS_NAMESPACE, channelsLocales } from './channels-locales';
import {
  isTagRow,
  useBatchDeleteMutation,
  useChannelGroupsQuery,
  useDeleteChannelMutation,
  useDeleteDisabledMutation,
  useEditTagMutation,
  useEnabledModelsQuery,
  useFixAbilitiesMutation,
  useListChannelsQuery,
  useSetTagStatusMutation,
  useTestAllMutation,
  useTestChannelMutation,
  useUpdateAllBalancesMutation,
  useUpdateBalanceMutation,
  useUpdateChannelMutation,
  type Channel,
  type ChannelTagRow,
} from './channels-api';

/** On phones a channel card leaves out the priority and weight editors; its buttons go under their label. */
const PHONE_COLUMNS: Partial<Record<ColumnKey, PhoneColumn>> = {
  priority: 'hide',
  weight: 'hide',
  actions: 'wide',
};

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

const STATUS_COLORS = {
  enabled: 'success',
  disabled: 'default',
  autoDisabled: 'warning',
  unknown: 'default',
} as const;

/** Admin screen (`/channel`): search, type tabs, toolbar, the channel table, drawers and dialogs. */
export function ChannelsPage() {
  const { t } = useFeatureTranslation(CHANNELS_NAMESPACE, channelsLocales);
  const { user: me } = useSession();
  if (!me || me.role < UserRole.admin) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="warning">{t('adminOnly')}</Alert>
      </Box>
    );
  }
  return <ChannelsAdmin t={t} />;
}

type Pending =
  | { kind: 'delete'; channel: Channel }
  | { kind: 'deleteDisabled' }
  | { kind: 'batchDelete' }
  | { kind: 'fix' };

function ChannelsAdmin({ t }: { t: Translate }) {
  const storage = useConsoleStorage();
  const notify = useNotify();
  const { formatQuota } = useQuotaFormat();
  const paging = usePaging();
  const { page, pageSize, setPage } = paging;
  const [idSort, setIdSort] = useState(() => storage.getItem(ID_SORT_STORAGE_KEY) === 'true');
  const [tagMode, setTagMode] = useState(() => storage.getItem(TAG_MODE_STORAGE_KEY) === 'true');
  const [columns, setColumns] = useState(() => parseColumns(storage.getJson(COLUMNS_STORAGE_KEY)));
  const [type, setType] = useState<number | null>(null);
  const [draft, setDraft] = useState({ keyword: '', group: '', model: '', status: '' });
  const [filters, setFilters] = useState(draft);
  const [selected, setSelected] = useState<number[]>([]);
  const [expanded, setExpanded] = useState<string[]>([]);
  // /channel/add and /channel/edit/:id open the drawer straight away.
  const link = useDeepLink('/channel');
  const [drawer, setDrawer] = useState<{ open: boolean; id: number | null }>(() =>
    link.adding || link.editId !== null ? { open: true, id: link.editId } : { open: false, id: null },
  );
  const [testing, setTesting] = useState<Channel | null>(null);
  const [copying, setCopying] = useState<Channel | null>(null);
  const [upstream, setUpstream] = useState<Channel | null>(null);
  const [editingTag, setEditingTag] = useState<ChannelTagRow | null>(null);
  const [batchTagOpen, setBatchTagOpen] = useState(false);
  const [columnsOpen, setColumnsOpen] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);

  const list = useListChannelsQuery({ ...filters, type, page, pageSize, idSort, tagMode });
  const groups = useChannelGroupsQuery();
  const enabledModels = useEnabledModelsQuery();
  const [deleteChannel] = useDeleteChannelMutation();
  const [deleteDisabled] = useDeleteDisabledMutation();
  const [batchDelete] = useBatchDeleteMutation();
  const [fixAbilities] = useFixAbilitiesMutation();
  const [testAll] = useTestAllMutation();
  const [updateAllBalances] = useUpdateAllBalancesMutation();

  const items = list.data?.items ?? [];
  const typeCounts = list.data?.type_counts ?? {};
  const totalOfTypes = Object.values(typeCounts).reduce((sum, count) => sum + count, 0);
  const shown = COLUMN_KEYS.filter((key) => columns[key]);
  // The channels a header tick selects: plain rows and the children of expanded tags.
  const visibleIds = items.flatMap((row) =>
    isTagRow(row) ? (expanded.includes(row.tag) ? row.children.map((child) => child.id) : []) : [row.id],
  );
  const allSelected = visibleIds.length > 0 && visibleIds.every((id) => selected.includes(id));

  const attempt = async (work: () => Promise<string>) => {
    try {
      notify(await work(), 'success');
    } catch (failure) {
      notify(describeApiError(failure, t), 'error');
    }
  };

  const search = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setFilters(draft);
  };

  const confirm = () => {
    const action = pending;
    setPending(null);
    if (!action) return;
    switch (action.kind) {
      case 'delete':
        void attempt(async () => {
          await deleteChannel(action.channel.id).unwrap();
          setSelected((current) => current.filter((id) => id !== action.channel.id));
          return t('actions.success');
        });
        break;
      case 'deleteDisabled':
        void attempt(async () => t('actions.deleted', { count: await deleteDisabled().unwrap() }));
        break;
      case 'batchDelete':
        void attempt(async () => {
          const count = await batchDelete(selected).unwrap();
          setSelected([]);
          return t('actions.deleted', { count });
        });
        break;
      case 'fix':
        void attempt(async () => {
          const result = await fixAbilities().unwrap();
          return t('actions.fixed', { success: result.success, fails: result.fails });
        });
        break;
    }
  };

  const toggleSelected = (id: number, on: boolean) =>
    setSelected((current) => (on ? [...new Set([...current, id])] : current.filter((item) => item !== id)));

  const rowProps = { t, shown, formatQuota, selected, onSelect: toggleSelected };

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {t('title')}
        </Typography>
        <Paper component="form" role="search" onSubmit={search} sx={{ p: 2 }}>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
            <TextField
              label={t('search.keyword')}
              placeholder={t('search.keywordPlaceholder')}
              name="keyword"
              size="small"
              value={draft.keyword}
              onChange={(event) => setDraft({ ...draft, keyword: event.target.value })}
              sx={{ flexGrow: 1 }}
            />
            <TextField
              select
              label={t('search.group')}
              size="small"
              value={draft.group}
              onChange={(event) => setDraft({ ...draft, group: event.target.value })}
              sx={{ minWidth: 140 }}
            >
              <MenuItem value="">{t('search.allGroups')}</MenuItem>
              {(groups.data ?? []).map((name) => (
                <MenuItem key={name} value={name}>
                  {name}
                </MenuItem>
              ))}
            </TextField>
            <Autocomplete
              freeSolo
              options={enabledModels.data ?? []}
              inputValue={draft.model}
              onInputChange={(_event, value) => setDraft((current) => ({ ...current, model: value }))}
              sx={{ minWidth: 180 }}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t('search.model')}
                  placeholder={t('search.modelPlaceholder')}
                  name="model"
                  size="small"
                  helperText={enabledModels.isError ? t('search.modelsFailed') : undefined}
                />
              )}
            />
            <TextField
              select
              label={t('search.status')}
              size="small"
              value={draft.status}
              onChange={(event) => setDraft({ ...draft, status: event.target.value })}
              sx={{ minWidth: 120 }}
            >
              <MenuItem value="">{t('search.allStatus')}</MenuItem>
              <MenuItem value="enabled">{t('status.enabled')}</MenuItem>
              <MenuItem value="disabled">{t('status.disabled')}</MenuItem>
            </TextField>
            <Stack direction="row" spacing={1}>
              <Button type="submit" variant="contained">
                {t('search.submit')}
              </Button>
              <Button
                onClick={() => {
                  const blank = { keyword: '', group: '', model: '', status: '' };
                  setDraft(blank);
                  setFilters(blank);
                  setPage(1);
                }}
              >
                {t('search.reset')}
              </Button>
            </Stack>
          </Stack>
        </Paper>

        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
          <Button variant="contained" onClick={() => setDrawer({ open: true, id: null })}>
            {t('toolbar.add')}
          </Button>
          <Button
            variant="outlined"
            onClick={() => void attempt(async () => (await testAll().unwrap(), t('actions.testStarted')))}
          >
            {t('toolbar.testAll')}
          </Button>
          <Button
            variant="outlined"
            onClick={() =>
              void attempt(async () => (await updateAllBalances().unwrap(), t('actions.balanceStarted')))
            }
          >
            {t('toolbar.updateAllBalances')}
          </Button>
          <Button variant="outlined" onClick={() => setPending({ kind: 'fix' })}>
            {t('toolbar.fix')}
          </Button>
          <Button variant="outlined" color="error" onClick={() => setPending({ kind: 'deleteDisabled' })}>
            {t('toolbar.deleteDisabled')}
          </Button>
          <Button
            variant="outlined"
            color="error"
            onClick={() =>
              selected.length === 0
                ? notify(t('actions.selectFirst'), 'error')
                : setPending({ kind: 'batchDelete' })
            }
          >
            {t('toolbar.batchDelete')}
          </Button>
          <Button
            variant="outlined"
            onClick={() =>
              selected.length === 0 ? notify(t('actions.selectForTag'), 'error') : setBatchTagOpen(true)
            }
          >
            {t('toolbar.batchTag')}
          </Button>
          <Button variant="outlined" onClick={() => setColumnsOpen(true)}>
            {t('toolbar.columns')}
          </Button>
          <Button onClick={() => void list.refetch()}>{t('toolbar.refresh')}</Button>
          <FormControlLabel
            control={
              <Switch
                checked={idSort}
                onChange={(event) => {
                  storage.setItem(ID_SORT_STORAGE_KEY, String(event.target.checked));
                  setIdSort(event.target.checked);
                }}
              />
            }
            label={t('toolbar.idSort')}
          />
          <FormControlLabel
            control={
              <Switch
                checked={tagMode}
                onChange={(event) => {
                  storage.setItem(TAG_MODE_STORAGE_KEY, String(event.target.checked));
                  setTagMode(event.target.checked);
                  setPage(1);
                }}
              />
            }
            label={t('toolbar.tagMode')}
          />
        </Stack>

        <Tabs
          value={type ?? 'all'}
          onChange={(_event, value: number | 'all') => {
            setType(value === 'all' ? null : value);
            setPage(1);
          }}
          variant="scrollable"
          scrollButtons="auto"
          aria-label={t('columns.type')}
          sx={{ '& .MuiTab-root': { textTransform: 'none' } }}
        >
          <Tab value="all" label={`${t('tabs.all')} (${totalOfTypes})`} />
          {Object.entries(typeCounts).map(([id, count]) => (
            <Tab key={id} value={Number(id)} label={`${channelTypeName(Number(id), t)} (${count})`} />
          ))}
        </Tabs>

        {list.isError && <Alert severity="error">{describeApiError(list.error, t, t('loadFailed'))}</Alert>}

        <Paper>
          {list.isFetching && <LinearProgress />}
          <ResponsiveTable
            label={t('title')}
            tableSx={{ '& td, & th': { px: 1 }, '& td .MuiButton-root': { minWidth: 0, px: 0.75 } }}
            columns={[
              {
                key: 'select',
                label: '',
                head: (
                  <TableCell padding="checkbox">
                    <Checkbox
                      size="small"
                      checked={allSelected}
                      indeterminate={!allSelected && visibleIds.some((id) => selected.includes(id))}
                      onChange={(event) =>
                        setSelected((current) =>
                          event.target.checked
                            ? [...new Set([...current, ...visibleIds])]
                            : current.filter((id) => !visibleIds.includes(id)),
                        )
                      }
                      slotProps={{ input: { 'aria-label': t('toolbar.selectAll') } }}
                    />
                  </TableCell>
                ),
              },
              ...shown.map((key) => ({ key, label: t(`columns.${key}`), phone: PHONE_COLUMNS[key] })),
            ]}
          >
            {items.map((row) =>
              isTagRow(row) ? (
                <Fragment key={`tag-${row.tag}`}>
                  <TagRowView
                    {...rowProps}
                    row={row}
                    expanded={expanded.includes(row.tag)}
                    onToggle={() =>
                      setExpanded((current) =>
                        current.includes(row.tag)
                          ? current.filter((tag) => tag !== row.tag)
                          : [...current, row.tag],
                      )
                    }
                    onEdit={() => setEditingTag(row)}
                  />
                  {expanded.includes(row.tag) &&
                    row.children.map((child) => (
                      <ChannelRowView
                        key={child.id}
                        {...rowProps}
                        channel={child}
                        child
                        onEdit={() => setDrawer({ open: true, id: child.id })}
                        onTestWithModel={() => setTesting(child)}
                        onCopy={() => setCopying(child)}
                        onUpstream={() => setUpstream(child)}
                        onDelete={() => setPending({ kind: 'delete', channel: child })}
                      />
                    ))}
                </Fragment>
              ) : (
                <ChannelRowView
                  key={row.id}
                  {...rowProps}
                  channel={row}
                  onEdit={() => setDrawer({ open: true, id: row.id })}
                  onTestWithModel={() => setTesting(row)}
                  onCopy={() => setCopying(row)}
                  onUpstream={() => setUpstream(row)}
                  onDelete={() => setPending({ kind: 'delete', channel: row })}
                />
              ),
            )}
            {!list.isFetching && items.length === 0 && (
              <TableRow>
                <TableCell colSpan={shown.length + 1} align="center">
                  {t('empty')}
                </TableCell>
              </TableRow>
            )}
          </ResponsiveTable>
          <ListPagination t={t} paging={paging} total={list.data?.total ?? 0} />
        </Paper>
      </Stack>

      <ChannelDrawer
        open={drawer.open}
        channelId={drawer.id}
        onClose={() => {
          setDrawer({ open: false, id: null });
          link.close();
        }}
      />
      <TestModelDialog channel={testing} onClose={() => setTesting(null)} />
      <CopyChannelDialog channel={copying} onClose={() => setCopying(null)} />
      <UpstreamDialog channel={upstream} onClose={() => setUpstream(null)} />
      <TagEditDrawer row={editingTag} onClose={() => setEditingTag(null)} />
      <BatchTagDialog
        ids={selected}
        open={batchTagOpen}
        onClose={() => setBatchTagOpen(false)}
        onDone={() => {
          setBatchTagOpen(false);
          setSelected([]);
        }}
      />
      <ColumnSettingsDialog
        open={columnsOpen}
        columns={columns}
        onChange={(next) => {
          const parsed = parseColumns(next);
          storage.setJson(COLUMNS_STORAGE_KEY, parsed);
          setColumns(parsed);
        }}
        onClose={() => setColumnsOpen(false)}
      />
      <ConfirmDialog
        open={pending !== null}
        title={t('actions.confirmTitle')}
        message={
          pending === null
            ? ''
            : pending.kind === 'delete'
              ? t('actions.deleteConfirm', { name: pending.channel.name })
              : pending.kind === 'batchDelete'
                ? t('actions.batchDeleteConfirm', { count: selected.length })
                : pending.kind === 'fix'
                  ? t('actions.fixConfirm')
                  : t('actions.deleteDisabledConfirm')
        }
        confirmLabel={t('actions.confirm')}
        cancelLabel={t('actions.cancel')}
        onCancel={() => setPending(null)}
        onConfirm={confirm}
      />
    </Box>
  );
}

interface RowCommon {
  t: Translate;
  shown: ColumnKey[];
  formatQuota: (quota: number) => string;
  selected: number[];
  onSelect: (id: number, on: boolean) => void;
}

/** Priority or weight edited in place: saved on Enter or when the field loses focus, if changed. */
function InlineNumber({
  value,
  label,
  onSave,
}: {
  value: number | null;
  label: string;
  onSave: (text: string) => Promise<boolean>;
}) {
  const initial = value === null ? '' : String(value);
  const [text, setText] = useState(initial);
  const [seen, setSeen] = useState(initial);
  if (seen !== initial) {
    // The row was refetched: show the stored value.
    setSeen(initial);
    setText(initial);
  }
  const commit = async () => {
    if (text.trim() === initial || text.trim() === '') {
      setText(initial);
      return;
    }
    if (!(await onSave(text))) setText(initial);
  };
  return (
    <TextField
      size="small"
      type="number"
      value={text}
      placeholder={value === null ? '—' : undefined}
      onChange={(event) => setText(event.target.value)}
      onBlur={() => void commit()}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'Enter') (event.target as HTMLInputElement).blur();
      }}
      slotProps={{ htmlInput: { 'aria-label': label, style: { width: 48 } } }}
    />
  );
}

function StatusChip({ status, otherInfo, t }: { status: number; otherInfo: string | null; t: Translate }) {
  const name = channelStatusName(status);
  const chip = <Chip size="small" color={STATUS_COLORS[name]} label={t(`status.${name}`)} />;
  const info = name === 'autoDisabled' ? parseStatusInfo(otherInfo) : null;
  if (!info) return chip;
  return (
    <Tooltip
      title={
        <>
          {info.reason && <div>{t('status.reason', { reason: info.reason })}</div>}
          {info.time > 0 && <div>{t('status.time', { time: formatTimestamp(info.time) })}</div>}
        </>
      }
    >
      {chip}
    </Tooltip>
  );
}

function ResponseTime({
  milliseconds,
  testTime,
  t,
  onClick,
}: {
  milliseconds: number;
  testTime: number;
  t: Translate;
  onClick?: () => void;
}) {
  const tone = responseTimeTone(milliseconds);
  const label =
    tone === 'untested'
      ? t('responseTime.untested')
      : t('responseTime.seconds', { value: (milliseconds / 1000).toFixed(2) });
  return (
    <Tooltip title={testTime ? formatTimestamp(testTime) : ''}>
      <Chip
        size="small"
        variant="outlined"
        label={label}
        onClick={onClick}
        data-tone={tone}
        sx={{ color: RESPONSE_TIME_COLORS[tone], borderColor: RESPONSE_TIME_COLORS[tone] }}
      />
    </Tooltip>
  );
}

function GroupChips({ groups }: { groups: string }) {
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {splitList(groups).map((group) => (
        <Chip key={group} size="small" label={group} />
      ))}
    </Stack>
  );
}

interface ChannelRowProps extends RowCommon {
  channel: Channel;
  child?: boolean;
  onEdit: () => void;
  onTestWithModel: () => void;
  onCopy: () => void;
  onUpstream: () => void;
  onDelete: () => void;
}

function ChannelRowView({
  t,
  shown,
  formatQuota,
  selected,
  onSelect,
  channel,
  child,
  onEdit,
  onTestWithModel,
  onCopy,
  onUpstream,
  onDelete,
}: ChannelRowProps) {
  const notify = useNotify();
  const [update] = useUpdateChannelMutation();
  const [test, testing] = useTestChannelMutation();
  const [updateBalance, balancing] = useUpdateBalanceMutation();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const enabled = channel.status === 1;

  const runTest = async () => {
    try {
      const answer = await test({ id: channel.id }).unwrap();
      if (answer.success)
        notify(t('actions.testPassed', { name: channel.name, time: answer.time.toFixed(2) }), 'success');
      else notify(t('actions.testFailed', { name: channel.name, message: answer.message }), 'error');
    } catch (failure) {
      notify(describeApiError(failure, t), 'error');
    }
  };

  const runBalance = async () => {
    try {
      const answer = await updateBalance(channel.id).unwrap();
      if (answer.success) notify(t('balance.updated', { value: answer.balance.toFixed(2) }), 'success');
      else notify(answer.message, 'error');
    } catch (failure) {
      notify(describeApiError(failure, t), 'error');
    }
  };

  const save = async (field: 'priority' | 'weight', text: string): Promise<boolean> => {
    const value = field === 'priority' ? parsePriority(text) : parseWeight(text);
    if (value === null) {
      notify(t(field === 'priority' ? 'actions.priorityInvalid' : 'actions.weightInvalid'), 'error');
      return false;
    }
    try {
      await update({ id: channel.id, [field]: value }).unwrap();
      notify(t('actions.saved'), 'success');
      return true;
    } catch (failure) {
      notify(describeApiError(failure, t), 'error');
      return false;
    }
  };

  const setStatus = async (status: number) => {
    try {
      await update({ id: channel.id, status }).unwrap();
      notify(t('actions.success'), 'success');
    } catch (failure) {
      notify(describeApiError(failure, t), 'error');
    }
  };

  const cells: Record<ColumnKey, React.ReactNode> = {
    id: channel.id,
    name: (
      <Tooltip title={channel.tag ? t('tag.label', { tag: channel.tag }) : ''}>
        <Typography variant="body2" sx={{ pl: child ? 1.5 : 0, minWidth: 120, wordBreak: 'break-word' }}>
          {child ? `↳ ${channel.name}` : channel.name}
        </Typography>
      </Tooltip>
    ),
    group: <GroupChips groups={channel.group} />,
    type: <Chip size="small" variant="outlined" label={channelTypeName(channel.type, t)} />,
    status: <StatusChip status={channel.status} otherInfo={channel.other_info} t={t} />,
    responseTime: (
      <ResponseTime
        milliseconds={channel.response_time}
        testTime={channel.test_time}
        t={t}
        onClick={() => void runTest()}
      />
    ),
    balance: (
      <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
        <Chip
          size="small"
          variant="outlined"
          label={t('balance.used', { value: formatQuota(Number(channel.used_quota)) })}
        />
        {BALANCE_TYPES.has(channel.type) ? (
          <Tooltip title={t('balance.clickToUpdate')}>
            <Chip
              size="small"
              variant="outlined"
              color="primary"
              disabled={balancing.isLoading}
              onClick={() => void runBalance()}
              label={t('balance.remaining', { value: formatCurrency(Number(channel.balance)) })}
            />
          </Tooltip>
        ) : null}
      </Stack>
    ),
    priority: (
      <InlineNumber
        value={Number(channel.priority)}
        label={`${t('columns.priority')} ${channel.name}`}
        onSave={(text) => save('priority', text)}
      />
    ),
    weight: (
      <InlineNumber
        value={channel.weight}
        label={`${t('columns.weight')} ${channel.name}`}
        onSave={(text) => save('weight', text)}
      />
    ),
    actions: (
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', whiteSpace: 'nowrap' }}>
        <ButtonGroup size="small" variant="outlined">
          <Button onClick={() => void runTest()} disabled={testing.isLoading}>
            {t('actions.test')}
          </Button>
          <Button onClick={onTestWithModel} aria-label={t('actions.testWithModel')}>
            ▾
          </Button>
        </ButtonGroup>
        {enabled ? (
          <Button size="small" color="warning" onClick={() => void setStatus(2)}>
            {t('actions.disable')}
          </Button>
        ) : (
          <Button size="small" color="success" onClick={() => void setStatus(1)}>
            {t('actions.enable')}
          </Button>
        )}
        <Button size="small" onClick={onEdit}>
          {t('actions.edit')}
        </Button>
        <IconButton
          size="small"
          aria-label={t('actions.more')}
          onClick={(event) => setMenu(event.currentTarget)}
        >
          ⋯
        </IconButton>
        <Menu anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)}>
          <MenuItem onClick={() => (setMenu(null), onCopy())}>{t('actions.copy')}</MenuItem>
          <MenuItem onClick={() => (setMenu(null), onUpstream())}>{t('actions.upstream')}</MenuItem>
          {BALANCE_TYPES.has(channel.type) && (
            <MenuItem onClick={() => (setMenu(null), void runBalance())}>
              {t('actions.updateBalance')}
            </MenuItem>
          )}
          <MenuItem sx={{ color: 'error.main' }} onClick={() => (setMenu(null), onDelete())}>
            {t('actions.delete')}
          </MenuItem>
        </Menu>
      </Stack>
    ),
  };

  return (
    <TableRow
      data-testid={`channel-row-${channel.id}`}
      data-enabled={enabled ? 'true' : 'false'}
      data-child={child ? 'true' : undefined}
      sx={enabled ? undefined : { opacity: 0.55, bgcolor: 'action.hover' }}
    >
      <TableCell padding="checkbox">
        <Checkbox
          size="small"
          checked={selected.includes(channel.id)}
          onChange={(event) => onSelect(channel.id, event.target.checked)}
          slotProps={{ input: { 'aria-label': `${channel.id}` } }}
        />
      </TableCell>
      {shown.map((key) => (
        <TableCell key={key}>{cells[key]}</TableCell>
      ))}
    </TableRow>
  );
}

interface TagRowProps extends RowCommon {
  row: ChannelTagRow;
  expanded: boolean;
  onToggle: () => void;
  onEdit: () => void;
}

function TagRowView({ t, shown, formatQuota, row, expanded, onToggle, onEdit }: TagRowProps) {
  const notify = useNotify();
  const [setTagStatus] = useSetTagStatusMutation();
  const [editTag] = useEditTagMutation();
  const [confirmingDisable, setConfirmingDisable] = useState(false);
  const enabled = row.status === 1;

  const toggleStatus = async (on: boolean) => {
    try {
      await setTagStatus({ tag: row.tag, enabled: on }).unwrap();
      notify(t('actions.success'), 'success');
    } catch (failure) {
      notify(describeApiError(failure, t), 'error');
    }
  };

  const save = async (field: 'priority' | 'weight', text: string): Promise<boolean> => {
    const value = field === 'priority' ? parsePriority(text) : parseWeight(text);
    if (value === null) {
      notify(t(field === 'priority' ? 'actions.priorityInvalid' : 'actions.weightInvalid'), 'error');
      return false;
    }
    try {
      await editTag({ tag: row.tag, [field]: value }).unwrap();
      notify(t('actions.saved'), 'success');
      return true;
    } catch (failure) {
      notify(describeApiError(failure, t), 'error');
      return false;
    }
  };

  const cells: Record<ColumnKey, React.ReactNode> = {
    id: (
      <Button size="small" onClick={onToggle} aria-expanded={expanded} sx={{ whiteSpace: 'nowrap' }}>
        {expanded ? t('tag.collapse') : t('tag.expand')}
      </Button>
    ),
    name: (
      <Stack spacing={0.5} sx={{ minWidth: 120 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {t('tag.label', { tag: row.tag })}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {t('tag.children', { count: row.children.length })}
        </Typography>
      </Stack>
    ),
    group: <GroupChips groups={row.group} />,
    type:
      row.type === null ? (
        <Chip size="small" label={t('tag.mixed')} />
      ) : (
        <Chip size="small" variant="outlined" label={channelTypeName(row.type, t)} />
      ),
    status: <StatusChip status={row.status} otherInfo={null} t={t} />,
    responseTime: <ResponseTime milliseconds={row.response_time} testTime={row.test_time} t={t} />,
    balance: (
      <Chip
        size="small"
        variant="outlined"
        label={t('balance.used', { value: formatQuota(Number(row.used_quota)) })}
      />
    ),
    priority: (
      <InlineNumber
        value={row.priority === null ? null : Number(row.priority)}
        label={`${t('columns.priority')} ${row.tag}`}
        onSave={(text) => save('priority', text)}
      />
    ),
    weight: (
      <InlineNumber
        value={row.weight}
        label={`${t('columns.weight')} ${row.tag}`}
        onSave={(text) => save('weight', text)}
      />
    ),
    actions: (
      <Stack direction="row" spacing={0.5} sx={{ whiteSpace: 'nowrap' }}>
        <Button size="small" color="success" onClick={() => void toggleStatus(true)}>
          {t('actions.enableTag')}
        </Button>
        <Button size="small" color="warning" onClick={() => setConfirmingDisable(true)}>
          {t('actions.disableTag')}
        </Button>
        <Button size="small" onClick={onEdit}>
          {t('actions.editTag')}
        </Button>
      </Stack>
    ),
  };

  return (
    <TableRow
      data-testid={`tag-row-${row.tag}`}
      data-enabled={enabled ? 'true' : 'false'}
      data-priority={tagFieldDisplay(row.priority)}
      sx={enabled ? undefined : { opacity: 0.55, bgcolor: 'action.hover' }}
    >
      <TableCell padding="checkbox" />
      {shown.map((key) => (
        <TableCell key={key}>{cells[key]}</TableCell>
      ))}
      <ConfirmDialog
        open={confirmingDisable}
        title={t('actions.confirmTitle')}
        message={t('actions.disableTagConfirm', { tag: row.tag, count: row.children.length })}
        confirmLabel={t('actions.confirm')}
        cancelLabel={t('actions.cancel')}
        onCancel={() => setConfirmingDisable(false)}
        onConfirm={() => {
          setConfirmingDisable(false);
          void toggleStatus(false);
        }}
      />
    </TableRow>
  );
}
