import { Fragment, useState } from 'react';
import {
  Alert,
  Box,
  Checkbox,
  LinearProgress,
  Paper,
  Stack,
  Tab,
  TableCell,
  TableRow,
  Tabs,
  Typography,
} from '@mui/material';
import { describeApiError } from '../../api/describe-api-error';
import { useApiAction } from '../../api/use-api-action';
import { UserRole } from '../../api/api-types';
import { useQuotaFormat } from '../../format/use-quota-format';
import { ListPagination } from '../../components/list-page';
import { ResponsiveTable, type PhoneColumn } from '../../components/responsive-table';
import { useNotify } from '../../provider/console-context';
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
  channelTypeName,
  COLUMNS_STORAGE_KEY,
  ID_SORT_STORAGE_KEY,
  parseColumns,
  TAG_MODE_STORAGE_KEY,
  type ColumnKey,
} from './channel-rules';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ChannelRowView, TagRowView } from './channel-rows';
import { ChannelsToolbar } from './channels-toolbar';
import { useChannelsList } from './use-channels-list';
import { BLANK_CHANNEL_FILTERS, ChannelsFilters } from './channels-filters';
import { CHANNELS_NAMESPACE, channelsLocales } from './channels-locales';
import {
  isTagRow,
  useBatchDeleteMutation,
  useChannelGroupsQuery,
  useDeleteChannelMutation,
  useDeleteDisabledMutation,
  useEnabledModelsQuery,
  useFixAbilitiesMutation,
  useTestAllMutation,
  useUpdateAllBalancesMutation,
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
  const notify = useNotify();
  const { formatQuota } = useQuotaFormat();
  const view = useChannelsList();
  const { paging, storage, idSort, setIdSort, tagMode, setTagMode, columns, setColumns, type, setType } =
    view;
  const { draft, setDraft, setFilters, selected, setSelected, expanded, setExpanded, list } = view;
  const { items, typeCounts, totalOfTypes, shown, visibleIds, allSelected, toggleSelected } = view;
  const { setPage } = paging;
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

  const groups = useChannelGroupsQuery();
  const enabledModels = useEnabledModelsQuery();
  const [deleteChannel] = useDeleteChannelMutation();
  const [deleteDisabled] = useDeleteDisabledMutation();
  const [batchDelete] = useBatchDeleteMutation();
  const [fixAbilities] = useFixAbilitiesMutation();
  const [testAll] = useTestAllMutation();
  const [updateAllBalances] = useUpdateAllBalancesMutation();

  const action = useApiAction(t);
  /** Runs a call whose answer is worded by `work`'s result, as the success toast. */
  const attempt = (work: () => Promise<string>) => action.run(work, { success: (text) => text });

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

  const rowProps = { t, shown, formatQuota, selected, onSelect: toggleSelected };

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {t('title')}
        </Typography>
        <ChannelsFilters
          t={t}
          draft={draft}
          setDraft={setDraft}
          groups={groups.data ?? []}
          models={enabledModels.data ?? []}
          modelsFailed={enabledModels.isError}
          onSearch={() => {
            setPage(1);
            setFilters(draft);
          }}
          onReset={() => {
            setDraft(BLANK_CHANNEL_FILTERS);
            setFilters(BLANK_CHANNEL_FILTERS);
            setPage(1);
          }}
        />

        <ChannelsToolbar
          t={t}
          onAdd={() => setDrawer({ open: true, id: null })}
          onTestAll={() => void attempt(async () => (await testAll().unwrap(), t('actions.testStarted')))}
          onUpdateBalances={() =>
            void attempt(async () => (await updateAllBalances().unwrap(), t('actions.balanceStarted')))
          }
          onBatchTag={() =>
            selected.length === 0 ? notify(t('actions.selectForTag'), 'error') : setBatchTagOpen(true)
          }
          onColumns={() => setColumnsOpen(true)}
          onRefresh={() =>
            void list
              .refetch()
              .unwrap()
              .catch(() => notify(t('actions.refreshFailed'), 'error'))
          }
          onFix={() => setPending({ kind: 'fix' })}
          onBatchDelete={() =>
            selected.length === 0
              ? notify(t('actions.selectFirst'), 'error')
              : setPending({ kind: 'batchDelete' })
          }
          onDeleteDisabled={() => setPending({ kind: 'deleteDisabled' })}
          idSort={idSort}
          onIdSort={(on) => {
            storage.setItem(ID_SORT_STORAGE_KEY, String(on));
            setIdSort(on);
          }}
          tagMode={tagMode}
          onTagMode={(on) => {
            storage.setItem(TAG_MODE_STORAGE_KEY, String(on));
            setTagMode(on);
            setPage(1);
          }}
        />

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
