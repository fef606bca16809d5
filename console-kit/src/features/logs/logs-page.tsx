import { Fragment, useMemo, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  IconButton,
  LinearProgress,
  Link,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import dayjs, { type Dayjs } from 'dayjs';
import { describeApiError } from '../../api/describe-api-error';
import { isAdmin } from '../../shell/shell-nav';
import { useQuotaFormat } from '../../format/use-quota-format';
import { ListPagination, usePaging } from '../../components/list-page';
import { ResponsiveTable, type PhoneColumn } from '../../components/responsive-table';
import { useConsoleStorage } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSession } from '../../provider/use-session';
import { DateTimeRange, PickersProvider } from '../../components/date-time-range';
import { LogDetails } from './log-details';
import { hasStoredContent, LogContentButton } from './log-content';
import {
  ADMIN_LOG_COLUMNS,
  defaultLogColumns,
  emptyLogFilters,
  firstTokenColor,
  formatLogTime,
  isValidChannelFilter,
  LOG_COLUMNS,
  LOG_COLUMNS_STORAGE_KEY,
  LOG_TYPE_COLORS,
  LOG_TYPE_KEYS,
  LOG_TYPES,
  logTypeKey,
  parseLogColumns,
  parseOther,
  retryChain,
  timeSpentColor,
  type LogColumn,
  type LogEntry,
  type LogFilters,
} from './log-rules';
import { LOGS_NAMESPACE, logsLocales } from './logs-locales';
import { useListLogsQuery, useLogStatQuery, useUserSummaryQuery } from './logs-api';
import { LogExportButton } from '../../components/log-export-button';

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

/** On phones a log card shows the details under their label and leaves the retry chain to the expanded row. */
const PHONE_COLUMNS: Partial<Record<LogColumn, PhoneColumn>> = { details: 'wide', retry: 'hide' };

/** The usage log (/log): stat chips, filters, type dropdown, column settings, expandable rows. */
export function LogsPage() {
  const { t, i18n } = useFeatureTranslation(LOGS_NAMESPACE, logsLocales);
  const { user } = useSession();
  const admin = isAdmin(user);
  const storage = useConsoleStorage();
  const { formatQuota, formatCallCost, options: quotaOptions } = useQuotaFormat();

  const initial = useMemo(() => emptyLogFilters(), []);
  const [draft, setDraft] = useState<LogFilters>(initial);
  const [filters, setFilters] = useState<LogFilters>(initial);
  const [start, setStart] = useState<Dayjs | null>(dayjs.unix(initial.startTimestamp));
  const [end, setEnd] = useState<Dayjs | null>(dayjs.unix(initial.endTimestamp));
  const paging = usePaging();
  const { page, pageSize, setPage } = paging;
  const [columns, setColumns] = useState(() => parseLogColumns(storage.getItem(LOG_COLUMNS_STORAGE_KEY)));
  const [columnsOpen, setColumnsOpen] = useState(false);
  const [expanded, setExpanded] = useState<Set<number>>(() => new Set());
  const [userInfoId, setUserInfoId] = useState<number | null>(null);
  const channelInvalid = !isValidChannelFilter(draft.channel);

  const list = useListLogsQuery({ filters, admin, page, pageSize });
  const stat = useLogStatQuery({ filters, admin });

  const visible = LOG_COLUMNS.filter(
    (column) => columns[column] && (admin || !ADMIN_LOG_COLUMNS.has(column)),
  );

  const apply = (next: LogFilters) => {
    setFilters(next);
    setPage(1);
    setExpanded(new Set());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (channelInvalid) {
      return;
    }
    apply({
      ...draft,
      startTimestamp: start?.isValid() ? start.unix() : 0,
      endTimestamp: end?.isValid() ? end.unix() : 0,
    });
  };

  const reset = () => {
    const fresh = emptyLogFilters();
    setDraft(fresh);
    setStart(dayjs.unix(fresh.startTimestamp));
    setEnd(dayjs.unix(fresh.endTimestamp));
    apply(fresh);
  };

  const saveColumns = (next: Record<LogColumn, boolean>) => {
    setColumns(next);
    storage.setItem(LOG_COLUMNS_STORAGE_KEY, JSON.stringify(next));
  };

  const toggle = (id: number) => {
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) {
        next.delete(id);
      } else {
        next.add(id);
      }
      return next;
    });
  };

  const text = (field: keyof LogFilters, label: string) => (
    <TextField
      label={label}
      name={field}
      size="small"
      value={draft[field]}
      onChange={(event) => setDraft({ ...draft, [field]: event.target.value })}
      sx={{ minWidth: { sm: 150 }, width: { xs: '100%', sm: 'auto' } }}
    />
  );

  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {t('title')}
        </Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} data-testid="log-stat">
          <Chip color="primary" label={t('stat.quota', { value: formatQuota(stat.data?.quota ?? 0) })} />
          <Chip color="secondary" label={t('stat.rpm', { value: stat.data?.rpm ?? 0 })} />
          <Chip color="success" label={t('stat.tpm', { value: stat.data?.tpm ?? 0 })} />
        </Stack>
        {stat.isError && <Alert severity="warning">{describeApiError(stat.error, t, t('statFailed'))}</Alert>}

        <Paper component="form" role="search" onSubmit={submit} sx={{ p: 2 }}>
          <PickersProvider language={i18n.language}>
            <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
              <Box sx={{ width: { xs: '100%', sm: 'auto' } }}>
                <DateTimeRange
                  start={start}
                  end={end}
                  onStart={setStart}
                  onEnd={setEnd}
                  startLabel={t('filters.start')}
                  endLabel={t('filters.end')}
                  rangeLabel={t('filters.range')}
                />
              </Box>
              {text('tokenName', t('filters.tokenName'))}
              {text('modelName', t('filters.modelName'))}
              {text('group', t('filters.group'))}
              {text('requestId', t('filters.requestId'))}
              {admin && text('username', t('filters.username'))}
              {admin && (
                <TextField
                  label={t('filters.channel')}
                  name="channel"
                  size="small"
                  value={draft.channel}
                  error={channelInvalid}
                  helperText={channelInvalid ? t('filters.channelInvalid') : undefined}
                  onChange={(event) => setDraft({ ...draft, channel: event.target.value })}
                  slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                  sx={{ minWidth: { sm: 120 }, width: { xs: '100%', sm: 'auto' } }}
                />
              )}
            </Stack>
          </PickersProvider>
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{ mt: 2, flexWrap: 'wrap', alignItems: 'center' }}
          >
            <Button type="submit" variant="contained" disabled={channelInvalid}>
              {t('filters.query')}
            </Button>
            <Button variant="outlined" onClick={reset}>
              {t('filters.reset')}
            </Button>
            <TextField
              select
              label={t('filters.type')}
              size="small"
              value={filters.type}
              onChange={(event) => {
                const type = Number(event.target.value);
                setDraft({ ...draft, type });
                apply({ ...filters, type });
              }}
              sx={{ minWidth: 130 }}
              slotProps={{ select: { inputProps: { 'data-testid': 'log-type' } } }}
            >
              {LOG_TYPES.map((type) => (
                <MenuItem key={type} value={type}>
                  {t(`type.${LOG_TYPE_KEYS[type]}`)}
                </MenuItem>
              ))}
            </TextField>
            <Button variant="text" onClick={() => setColumnsOpen(true)}>
              {t('filters.columns')}
            </Button>
            <LogExportButton filters={filters} admin={admin} />
          </Stack>
        </Paper>

        {list.isError && <Alert severity="error">{describeApiError(list.error, t, t('loadFailed'))}</Alert>}

        <Paper>
          {list.isFetching && <LinearProgress />}
          {/* Tight cells and one-line headers and times: every default column fits a 1440 px screen. */}
          <ResponsiveTable
            label={t('title')}
            tableSx={{ '& .MuiTableCell-root': { px: 1 }, '& .MuiTableCell-head': { whiteSpace: 'nowrap' } }}
            columns={[
              { key: 'expand', label: '', head: <TableCell padding="checkbox" /> },
              ...visible.map((column) => ({
                key: column,
                label: t(`columns.${column}`),
                phone: PHONE_COLUMNS[column],
              })),
            ]}
          >
            {items.map((entry) => (
              <LogRow
                key={entry.id}
                entry={entry}
                columns={visible}
                open={expanded.has(entry.id)}
                onToggle={() => toggle(entry.id)}
                onUserInfo={admin ? () => setUserInfoId(entry.user_id) : undefined}
                formatQuota={formatCallCost}
                quotaPerUnit={quotaOptions.quotaPerUnit}
                t={t}
              />
            ))}
            {!list.isFetching && items.length === 0 && (
              <TableRow>
                <TableCell colSpan={visible.length + 1} align="center">
                  {t('empty')}
                </TableCell>
              </TableRow>
            )}
          </ResponsiveTable>
          <ListPagination t={t} paging={paging} total={total} onPageChange={() => setExpanded(new Set())} />
        </Paper>
      </Stack>

      <ColumnSettingsDialog
        open={columnsOpen}
        columns={columns}
        admin={admin}
        onChange={saveColumns}
        onClose={() => setColumnsOpen(false)}
        t={t}
      />
      {userInfoId !== null && (
        <UserInfoDialog
          userId={userInfoId}
          onClose={() => setUserInfoId(null)}
          formatQuota={formatQuota}
          t={t}
        />
      )}
    </Box>
  );
}

interface LogRowProps {
  entry: LogEntry;
  columns: LogColumn[];
  open: boolean;
  onToggle: () => void;
  onUserInfo?: () => void;
  formatQuota: (quota: number) => string;
  quotaPerUnit: number;
  t: Translate;
}

function LogRow({ entry, columns, open, onToggle, onUserInfo, formatQuota, quotaPerUnit, t }: LogRowProps) {
  const other = useMemo(() => parseOther(entry.other), [entry.other]);
  const typeKey = logTypeKey(entry.type);
  const countable = entry.type === 2 || entry.type === 5;
  const cell = (column: LogColumn) => {
    switch (column) {
      case 'time':
        return (
          <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
            {formatLogTime(entry.created_at)}
          </Typography>
        );
      case 'channel':
        return countable && entry.channel ? (
          <Tooltip title={entry.channel_name || t('row.channelGone')}>
            <Chip size="small" variant="outlined" label={entry.channel} />
          </Tooltip>
        ) : null;
      case 'username':
        return entry.username ? (
          onUserInfo ? (
            <Link
              component="button"
              type="button"
              aria-label={`${t('row.userInfo')}: ${entry.username}`}
              onClick={(event) => {
                event.stopPropagation();
                onUserInfo();
              }}
            >
              {entry.username}
            </Link>
          ) : (
            entry.username
          )
        ) : null;
      case 'token':
        return entry.token_name ? <Chip size="small" variant="outlined" label={entry.token_name} /> : null;
      case 'group':
        return entry.group ? <Chip size="small" label={entry.group} /> : null;
      case 'type':
        return <Chip size="small" color={LOG_TYPE_COLORS[typeKey]} label={t(`type.${typeKey}`)} />;
      case 'model':
        return entry.model_name ? (
          <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
            <Chip size="small" variant="outlined" label={entry.model_name} />
            {other.is_model_mapped === true && typeof other.upstream_model_name === 'string' && (
              <Typography variant="caption" color="text.secondary">
                {t('row.mapped', { value: other.upstream_model_name })}
              </Typography>
            )}
          </Stack>
        ) : null;
      case 'useTime':
        return countable ? <UseTime entry={entry} frt={other.frt} t={t} /> : null;
      case 'prompt':
        return countable ? entry.prompt_tokens : null;
      case 'completion':
        return countable ? entry.completion_tokens : null;
      case 'quota':
        return countable || entry.quota ? formatQuota(entry.quota) : null;
      case 'retry': {
        const chain = retryChain(other);
        return chain.length > 0 ? (
          <Typography variant="caption">{t('row.retryChain', { value: chain.join(' → ') })}</Typography>
        ) : null;
      }
      case 'details': {
        const text = (
          <Typography
            variant="body2"
            title={entry.content}
            sx={{
              maxWidth: 240,
              overflow: 'hidden',
              display: '-webkit-box',
              WebkitLineClamp: 2,
              WebkitBoxOrient: 'vertical',
              wordBreak: 'break-word',
            }}
          >
            {entry.content}
          </Typography>
        );
        return hasStoredContent(other) ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <LogContentButton id={entry.id} t={t} />
            {text}
          </Stack>
        ) : (
          text
        );
      }
    }
  };
  return (
    <Fragment>
      <TableRow
        hover
        data-testid={`log-row-${entry.id}`}
        onClick={onToggle}
        sx={{ cursor: 'pointer', '& > td': { borderBottom: open ? 'none' : undefined } }}
      >
        <TableCell padding="checkbox">
          <IconButton
            size="small"
            aria-expanded={open}
            aria-label={open ? t('row.collapse') : t('row.expand')}
            onClick={(event) => {
              event.stopPropagation();
              onToggle();
            }}
          >
            <Box
              component="span"
              sx={{ display: 'inline-block', transform: open ? 'rotate(90deg)' : 'none' }}
            >
              ›
            </Box>
          </IconButton>
        </TableCell>
        {columns.map((column) => (
          <TableCell key={column}>{cell(column)}</TableCell>
        ))}
      </TableRow>
      {open && (
        <TableRow data-testid={`log-details-${entry.id}`}>
          <TableCell colSpan={columns.length + 1} sx={{ bgcolor: 'action.hover' }}>
            <LogDetails
              entry={entry}
              other={other}
              t={t}
              quotaPerUnit={quotaPerUnit}
              formatCost={formatQuota}
            />
          </TableCell>
        </TableRow>
      )}
    </Fragment>
  );
}

function UseTime({ entry, frt, t }: { entry: LogEntry; frt: unknown; t: Translate }) {
  const firstToken = typeof frt === 'number' && frt > 0 ? frt : null;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <Chip
        size="small"
        color={timeSpentColor(entry.use_time)}
        label={
          entry.use_time === 0 && firstToken !== null
            ? t('row.underOneSecond')
            : t('row.seconds', { value: entry.use_time })
        }
        data-testid="use-time"
      />
      {entry.is_stream && firstToken !== null && (
        <Chip
          size="small"
          color={firstTokenColor(firstToken)}
          label={t('row.frt', { value: (firstToken / 1000).toFixed(1) })}
          data-testid="first-token"
        />
      )}
      <Chip
        size="small"
        variant="outlined"
        color={entry.is_stream ? 'info' : 'default'}
        label={entry.is_stream ? t('row.stream') : t('row.notStream')}
      />
    </Stack>
  );
}

interface ColumnSettingsDialogProps {
  open: boolean;
  columns: Record<LogColumn, boolean>;
  admin: boolean;
  onChange: (columns: Record<LogColumn, boolean>) => void;
  onClose: () => void;
  t: Translate;
}

function ColumnSettingsDialog({ open, columns, admin, onChange, onClose, t }: ColumnSettingsDialogProps) {
  const available = LOG_COLUMNS.filter((column) => admin || !ADMIN_LOG_COLUMNS.has(column));
  const all = available.every((column) => columns[column]);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('columnSettings.title')}</DialogTitle>
      <DialogContent>
        <FormControlLabel
          control={
            <Checkbox
              checked={all}
              indeterminate={!all && available.some((column) => columns[column])}
              onChange={(event) => {
                const next = { ...columns };
                for (const column of available) {
                  next[column] = event.target.checked;
                }
                onChange(next);
              }}
            />
          }
          label={t('columnSettings.selectAll')}
        />
        <FormGroup sx={{ display: 'grid', gridTemplateColumns: 'repeat(2, 1fr)' }}>
          {available.map((column) => (
            <FormControlLabel
              key={column}
              control={
                <Checkbox
                  checked={columns[column]}
                  onChange={(event) => onChange({ ...columns, [column]: event.target.checked })}
                />
              }
              label={t(`columns.${column}`)}
            />
          ))}
        </FormGroup>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onChange(defaultLogColumns())}>{t('columnSettings.reset')}</Button>
        <Button variant="contained" onClick={onClose}>
          {t('columnSettings.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

interface UserInfoDialogProps {
  userId: number;
  onClose: () => void;
  formatQuota: (quota: number) => string;
  t: Translate;
}

function UserInfoDialog({ userId, onClose, formatQuota, t }: UserInfoDialogProps) {
  const summary = useUserSummaryQuery(userId);
  const data = summary.data;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('userInfo.title')}</DialogTitle>
      <DialogContent>
        {summary.isFetching && <LinearProgress />}
        {summary.isError && (
          <Alert severity="error">{describeApiError(summary.error, t, t('userInfo.loadFailed'))}</Alert>
        )}
        {data && (
          <Table size="small" data-testid="user-info">
            <TableBody>
              <TableRow>
                <TableCell>{t('userInfo.username')}</TableCell>
                <TableCell>{data.username}</TableCell>
              </TableRow>
              <TableRow>
                <TableCell>{t('userInfo.quota')}</TableCell>
                <TableCell>{formatQuota(data.quota)}</TableCell>
              </TableRow>
              <TableRow>
                <TableCell>{t('userInfo.usedQuota')}</TableCell>
                <TableCell>{formatQuota(data.used_quota)}</TableCell>
              </TableRow>
              <TableRow>
                <TableCell>{t('userInfo.requestCount')}</TableCell>
                <TableCell>{data.request_count}</TableCell>
              </TableRow>
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('userInfo.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
