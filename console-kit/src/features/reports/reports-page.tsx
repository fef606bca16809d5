import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  LinearProgress,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableFooter,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import dayjs, { type Dayjs } from 'dayjs';
import { describeApiError } from '../../api/describe-api-error';
import { useQuotaFormat } from '../../format/use-quota-format';
import { useConsoleRuntime, useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSession } from '../../provider/use-session';
import { isAdmin } from '../../shell/shell-nav';
import { DateTimeRange, PickersProvider } from '../../components/date-time-range';
import {
  dimensionsFor,
  REPORT_PERIODS,
  reportExportUrl,
  rowLabel,
  type ReportDimension,
  type ReportFilters,
  type ReportPeriod,
} from './report-rules';
import { downloadExport, saveBlob } from '../../lib/log-export';
import { useUsageReportQuery } from './reports-api';
import { REPORTS_NAMESPACE, reportsLocales } from './reports-locales';

function initialFilters(): ReportFilters {
  const now = dayjs();
  return {
    period: 'day',
    groupBy: 'model',
    startTimestamp: now.subtract(30, 'day').startOf('day').unix(),
    endTimestamp: now.unix(),
    tokenName: '',
    modelName: '',
    group: '',
    username: '',
  };
}

/** Usage and spend by day, week or month × model, user, token, group or channel (admins). */
export function ReportsPage() {
  const { t, i18n } = useFeatureTranslation(REPORTS_NAMESPACE, reportsLocales);
  const { user } = useSession();
  const admin = isAdmin(user);
  const { formatQuota } = useQuotaFormat();
  const [draft, setDraft] = useState<ReportFilters>(initialFilters);
  const [filters, setFilters] = useState<ReportFilters>(draft);
  const [start, setStart] = useState<Dayjs | null>(dayjs.unix(draft.startTimestamp));
  const [end, setEnd] = useState<Dayjs | null>(dayjs.unix(draft.endTimestamp));
  const report = useUsageReportQuery({ filters, admin });
  const runtime = useConsoleRuntime();
  const notify = useNotify();
  const [downloading, setDownloading] = useState(false);

  const download = () => {
    setDownloading(true);
    downloadExport(
      runtime,
      reportExportUrl(filters, admin),
      'csv',
      () => undefined,
      new AbortController().signal,
    )
      .then(({ blob, name }) => saveBlob(blob, name))
      .catch((failure: unknown) =>
        notify(
          t('export.failed', { message: failure instanceof Error ? failure.message : String(failure) }),
          'error',
        ),
      )
      .finally(() => setDownloading(false));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFilters({
      ...draft,
      startTimestamp: start?.isValid() ? start.unix() : 0,
      endTimestamp: end?.isValid() ? end.unix() : 0,
    });
  };

  const choose = (patch: Partial<ReportFilters>) => {
    setDraft({ ...draft, ...patch });
    setFilters({ ...filters, ...patch });
  };

  const text = (field: 'tokenName' | 'modelName' | 'group' | 'username', label: string) => (
    <TextField
      label={label}
      name={field}
      size="small"
      value={draft[field]}
      onChange={(event) => setDraft({ ...draft, [field]: event.target.value })}
      sx={{ minWidth: { sm: 150 } }}
    />
  );

  const data = report.data;
  const dimension = data?.group_by ?? filters.groupBy;
  const gone = (id: number | string) => t('channelGone', { id });

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {t('title')}
        </Typography>
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
              {admin && text('username', t('filters.username'))}
            </Stack>
          </PickersProvider>
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{ mt: 2, flexWrap: 'wrap', alignItems: 'center' }}
          >
            <Button type="submit" variant="contained">
              {t('filters.query')}
            </Button>
            <TextField
              select
              label={t('filters.period')}
              size="small"
              value={filters.period}
              onChange={(event) => choose({ period: event.target.value as ReportPeriod })}
              sx={{ minWidth: 160 }}
              slotProps={{ select: { inputProps: { 'data-testid': 'report-period' } } }}
            >
              {REPORT_PERIODS.map((p) => (
                <MenuItem key={p} value={p}>
                  {t(`period.${p}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label={t('filters.groupBy')}
              size="small"
              value={filters.groupBy}
              onChange={(event) => choose({ groupBy: event.target.value as ReportDimension })}
              sx={{ minWidth: 130 }}
              slotProps={{ select: { inputProps: { 'data-testid': 'report-dimension' } } }}
            >
              {dimensionsFor(admin).map((d) => (
                <MenuItem key={d} value={d}>
                  {t(`dimension.${d}`)}
                </MenuItem>
              ))}
            </TextField>
            <Button variant="outlined" onClick={download} disabled={downloading || !data}>
              {t('export.reportCsv')}
            </Button>
            {data && (
              <Typography variant="body2" color="text.secondary">
                {t('timeZone', { value: data.time_zone })}
              </Typography>
            )}
          </Stack>
        </Paper>

        {report.isError && (
          <Alert severity="error">{describeApiError(report.error, t, t('loadFailed'))}</Alert>
        )}

        <Paper>
          {report.isFetching && <LinearProgress />}
          <TableContainer>
            <Table size="small" aria-label={t('title')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('columns.period')}</TableCell>
                  <TableCell>{t(`dimension.${dimension}`)}</TableCell>
                  <TableCell align="right">{t('columns.requests')}</TableCell>
                  <TableCell align="right">{t('columns.quota')}</TableCell>
                  <TableCell align="right">{t('columns.prompt')}</TableCell>
                  <TableCell align="right">{t('columns.completion')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {(data?.rows ?? []).map((row) => (
                  <TableRow key={`${row.period}-${row.key}`} hover>
                    <TableCell>{row.period}</TableCell>
                    <TableCell>{rowLabel(row, dimension, gone)}</TableCell>
                    <TableCell align="right">{row.requests}</TableCell>
                    <TableCell align="right">{formatQuota(row.quota)}</TableCell>
                    <TableCell align="right">{row.prompt_tokens}</TableCell>
                    <TableCell align="right">{row.completion_tokens}</TableCell>
                  </TableRow>
                ))}
                {!report.isFetching && data && data.rows.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={6} align="center">
                      {t('empty')}
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
              {data && data.rows.length > 0 && (
                <TableFooter
                  sx={{ '& td': { fontWeight: 600, color: 'text.primary', fontSize: '0.875rem' } }}
                >
                  <TableRow data-testid="report-totals">
                    <TableCell colSpan={2}>{t('totals')}</TableCell>
                    <TableCell align="right">{data.totals.requests}</TableCell>
                    <TableCell align="right">{formatQuota(data.totals.quota)}</TableCell>
                    <TableCell align="right">{data.totals.prompt_tokens}</TableCell>
                    <TableCell align="right">{data.totals.completion_tokens}</TableCell>
                  </TableRow>
                </TableFooter>
              )}
            </Table>
          </TableContainer>
        </Paper>
      </Stack>
    </Box>
  );
}
