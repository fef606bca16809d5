import { useState } from 'react';
import {
  Button,
  ButtonGroup,
  Checkbox,
  Chip,
  IconButton,
  Menu,
  MenuItem,
  Stack,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useApiAction } from '../../api/use-api-action';
import { formatCurrency } from '../../format/quota';
import { useNotify } from '../../provider/console-context';
import { type useFeatureTranslation } from '../../provider/console-i18n';
import {
  BALANCE_TYPES,
  channelTypeName,
  parsePriority,
  parseWeight,
  tagFieldDisplay,
  type ColumnKey,
} from './channel-rules';
import { ConfirmDialog } from '../../components/confirm-dialog';
import {
  useEditTagMutation,
  useSetTagStatusMutation,
  useTestChannelMutation,
  useUpdateBalanceMutation,
  useUpdateChannelMutation,
  type Channel,
  type ChannelTagRow,
} from './channels-api';
import { GroupChips, InlineNumber, ResponseTime, StatusChip } from './channel-cells';

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

/** What every row of the channel table gets from the page. */
export interface RowCommon {
  t: Translate;
  shown: ColumnKey[];
  formatQuota: (quota: number) => string;
  selected: number[];
  onSelect: (id: number, on: boolean) => void;
}

export interface ChannelRowProps extends RowCommon {
  channel: Channel;
  child?: boolean;
  onEdit: () => void;
  onTestWithModel: () => void;
  onCopy: () => void;
  onUpstream: () => void;
  onDelete: () => void;
}

export function ChannelRowView({
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
  const action = useApiAction(t);
  const [update] = useUpdateChannelMutation();
  const [test, testing] = useTestChannelMutation();
  const [updateBalance, balancing] = useUpdateBalanceMutation();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const enabled = channel.status === 1;

  const runTest = () =>
    action.run(async () => {
      const answer = await test({ id: channel.id }).unwrap();
      if (answer.success)
        notify(t('actions.testPassed', { name: channel.name, time: answer.time.toFixed(2) }), 'success');
      else notify(t('actions.testFailed', { name: channel.name, message: answer.message }), 'error');
    });

  const runBalance = () =>
    action.run(async () => {
      const answer = await updateBalance(channel.id).unwrap();
      if (answer.success) notify(t('balance.updated', { value: answer.balance.toFixed(2) }), 'success');
      else notify(answer.message, 'error');
    });

  const save = async (field: 'priority' | 'weight', text: string): Promise<boolean> => {
    const value = field === 'priority' ? parsePriority(text) : parseWeight(text);
    if (value === null) {
      notify(t(field === 'priority' ? 'actions.priorityInvalid' : 'actions.weightInvalid'), 'error');
      return false;
    }
    return action.run(() => update({ id: channel.id, [field]: value }).unwrap(), {
      success: t('actions.saved'),
    });
  };

  const setStatus = (status: 1 | 2) =>
    action.run(() => update({ id: channel.id, status }).unwrap(), { success: t('actions.success') });

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

export interface TagRowProps extends RowCommon {
  row: ChannelTagRow;
  expanded: boolean;
  onToggle: () => void;
  onEdit: () => void;
}

export function TagRowView({ t, shown, formatQuota, row, expanded, onToggle, onEdit }: TagRowProps) {
  const notify = useNotify();
  const action = useApiAction(t);
  const [setTagStatus] = useSetTagStatusMutation();
  const [editTag] = useEditTagMutation();
  const [confirmingDisable, setConfirmingDisable] = useState(false);
  const enabled = row.status === 1;

  const toggleStatus = (on: boolean) =>
    action.run(() => setTagStatus({ tag: row.tag, enabled: on }).unwrap(), { success: t('actions.success') });

  const save = async (field: 'priority' | 'weight', text: string): Promise<boolean> => {
    const value = field === 'priority' ? parsePriority(text) : parseWeight(text);
    if (value === null) {
      notify(t(field === 'priority' ? 'actions.priorityInvalid' : 'actions.weightInvalid'), 'error');
      return false;
    }
    return action.run(() => editTag({ tag: row.tag, [field]: value }).unwrap(), {
      success: t('actions.saved'),
    });
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
