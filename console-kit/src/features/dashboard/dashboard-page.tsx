import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { PieChart } from '@mui/x-charts/PieChart';
import dayjs, { type Dayjs } from 'dayjs';
import { describeApiError } from '../../api/describe-api-error';
import { isAdmin } from '../../shell/shell-nav';
import { formatShortNumber } from '../../format/quota';
import { useQuotaFormat } from '../../format/use-quota-format';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSession } from '../../provider/use-session';
import { useSystemStatus } from '../../provider/use-system-status';
import { SelfBudgetCard } from '../../components/budget-usage';
import { DateTimeRange, PickersProvider } from '../../components/date-time-range';
import { useUsageDataQuery } from './dashboard-api';
import { DASHBOARD_NAMESPACE, dashboardLocales } from './dashboard-locales';
import {
  bucketLabel,
  bucketUsage,
  defaultDashboardRange,
  GRANULARITIES,
  granularityFromStatus,
  modelColors,
  quotaChartLabel,
  type Granularity,
} from './dashboard-rules';

interface AppliedFilters {
  start: number;
  end: number;
  modelName: string;
  username: string;
}

/** Dashboard (/detail): quota, requests and tokens over time by model; admins may pick one user. */
export function DashboardPage() {
  const { t, i18n } = useFeatureTranslation(DASHBOARD_NAMESPACE, dashboardLocales);
  const { user } = useSession();
  const admin = isAdmin(user);
  const { status } = useSystemStatus();
  const { formatQuota, options: quotaOptions } = useQuotaFormat();

  const statusGranularity = granularityFromStatus(status?.data_export_default_time);
  const [chosen, setChosen] = useState<Granularity | null>(null);
  const granularity = chosen ?? statusGranularity;

  const initialRange = useMemo(() => defaultDashboardRange(statusGranularity), [statusGranularity]);
  const [start, setStart] = useState<Dayjs | null>(null);
  const [end, setEnd] = useState<Dayjs | null>(null);
  const [modelName, setModelName] = useState('');
  const [username, setUsername] = useState('');
  const [applied, setApplied] = useState<AppliedFilters | null>(null);

  // Until the user queries, the range follows the default granularity (the status may arrive late).
  const filters: AppliedFilters = applied ?? {
    start: initialRange.start.unix(),
    end: initialRange.end.unix(),
    modelName: '',
    username: '',
  };
  const data = useUsageDataQuery({ filters: { ...filters, granularity }, admin });
  const chart = useMemo(() => bucketUsage(data.data ?? [], granularity), [data.data, granularity]);
  const labels = chart.buckets.map((at) => bucketLabel(at, granularity));
  const colors = useMemo(() => modelColors(chart.series), [chart.series]);

  const shownStart =
    start ?? (applied ? (applied.start ? dayjs.unix(applied.start) : null) : initialRange.start);
  const shownEnd = end ?? (applied ? (applied.end ? dayjs.unix(applied.end) : null) : initialRange.end);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setApplied({
      start: shownStart?.isValid() ? shownStart.unix() : 0,
      end: shownEnd?.isValid() ? shownEnd.unix() : 0,
      modelName,
      username,
    });
  };

  const reset = () => {
    setStart(null);
    setEnd(null);
    setModelName('');
    setUsername('');
    setChosen(null);
    setApplied(null);
  };

  const viewing = admin
    ? filters.username
      ? t('viewing.user', { username: filters.username })
      : t('viewing.all')
    : t('viewing.self');
  const empty = !data.isFetching && chart.series.length === 0;
  const quotaFormatter = (value: number | null) =>
    value === null ? '' : quotaChartLabel(value, quotaOptions);
  const numberFormatter = (value: number | null) => (value === null ? '' : String(value));
  /** The charts' own overlay texts (while loading, or with no series) in the console's language. */
  const chartText = { loading: t('charts.loading'), noData: t('charts.noData') };
  const chartsLoading = data.isFetching && chart.series.length === 0;

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Stack spacing={2}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
          <Typography variant="h5" component="h1">
            {t('title')}
          </Typography>
          <Typography color="text.secondary" data-testid="dashboard-viewing">
            {viewing}
          </Typography>
        </Stack>
        {status && status.enable_data_export === false && <Alert severity="info">{t('exportOff')}</Alert>}
        <SelfBudgetCard />

        <Paper component="form" role="search" onSubmit={submit} sx={{ p: 2 }}>
          <PickersProvider language={i18n.language}>
            <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
              <Box sx={{ width: { xs: '100%', sm: 'auto' } }}>
                <DateTimeRange
                  start={shownStart}
                  end={shownEnd}
                  onStart={(value) => setStart(value)}
                  onEnd={(value) => setEnd(value)}
                  startLabel={t('filters.start')}
                  endLabel={t('filters.end')}
                  rangeLabel={t('filters.range')}
                />
              </Box>
              <TextField
                label={t('filters.modelName')}
                name="model_name"
                size="small"
                value={modelName}
                onChange={(event) => setModelName(event.target.value)}
              />
              {admin && (
                <TextField
                  label={t('filters.username')}
                  name="username"
                  size="small"
                  value={username}
                  placeholder={t('filters.usernameHelp')}
                  onChange={(event) => setUsername(event.target.value)}
                />
              )}
              <Button type="submit" variant="contained">
                {t('filters.query')}
              </Button>
              <Button variant="outlined" onClick={reset}>
                {t('filters.reset')}
              </Button>
            </Stack>
          </PickersProvider>
          <Stack direction="row" spacing={1} sx={{ mt: 2, alignItems: 'center' }}>
            <Typography variant="body2" color="text.secondary">
              {t('filters.granularity')}
            </Typography>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={granularity}
              aria-label={t('filters.granularity')}
              onChange={(_event, value: Granularity | null) => {
                if (value) {
                  setChosen(value);
                }
              }}
            >
              {GRANULARITIES.map((item) => (
                <ToggleButton key={item} value={item}>
                  {t(`granularity.${item}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Stack>
        </Paper>

        {data.isError && <Alert severity="error">{describeApiError(data.error, t, t('loadFailed'))}</Alert>}
        {data.isFetching && <LinearProgress />}

        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' },
          }}
          data-testid="dashboard-totals"
        >
          <Total label={t('totals.quota')} value={formatQuota(chart.totals.quota)} />
          <Total label={t('totals.count')} value={String(chart.totals.count)} />
          <Total label={t('totals.tokens')} value={formatShortNumber(chart.totals.tokens)} />
          <Total
            label={t('totals.average')}
            value={formatQuota(chart.totals.count ? chart.totals.quota / chart.totals.count : 0)}
          />
        </Box>

        {empty ? (
          <Alert severity="info">{t('empty')}</Alert>
        ) : (
          <>
            <ChartCard title={t('charts.quota')} testId="chart-quota">
              <BarChart
                localeText={chartText}
                loading={chartsLoading}
                height={300}
                xAxis={[{ scaleType: 'band', data: labels }]}
                yAxis={[
                  { valueFormatter: (value: number) => quotaChartLabel(value, quotaOptions), width: 70 },
                ]}
                series={chart.series.map((item) => ({
                  label: item.model,
                  data: item.quota,
                  color: colors.get(item.model),
                  stack: 'quota',
                  valueFormatter: quotaFormatter,
                }))}
              />
            </ChartCard>
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
              <ChartCard title={t('charts.count')} testId="chart-count">
                <LineChart
                  localeText={chartText}
                  loading={chartsLoading}
                  height={280}
                  xAxis={[{ scaleType: 'point', data: labels }]}
                  yAxis={[{ tickMinStep: 1, width: 50 }]}
                  series={chart.series.map((item) => ({
                    label: item.model,
                    data: item.count,
                    color: colors.get(item.model),
                    showMark: true,
                    valueFormatter: numberFormatter,
                  }))}
                />
              </ChartCard>
              <ChartCard title={t('charts.tokens')} testId="chart-tokens">
                <LineChart
                  localeText={chartText}
                  loading={chartsLoading}
                  height={280}
                  xAxis={[{ scaleType: 'point', data: labels }]}
                  yAxis={[{ valueFormatter: (value: number) => formatShortNumber(value), width: 60 }]}
                  series={chart.series.map((item) => ({
                    label: item.model,
                    data: item.tokens,
                    color: colors.get(item.model),
                    showMark: true,
                    area: true,
                    stack: 'tokens',
                    valueFormatter: numberFormatter,
                  }))}
                />
              </ChartCard>
            </Box>
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
              <ChartCard title={t('charts.share')} testId="chart-share">
                <PieChart
                  localeText={chartText}
                  loading={chartsLoading}
                  height={260}
                  series={[
                    {
                      innerRadius: 50,
                      data: chart.byModel.map((item, position) => ({
                        id: position,
                        label: item.model,
                        value: item.quota,
                        color: colors.get(item.model),
                      })),
                      valueFormatter: (item) => quotaChartLabel(item.value, quotaOptions),
                    },
                  ]}
                />
              </ChartCard>
              <Paper sx={{ p: 2, overflowX: 'auto' }}>
                <Table size="small" aria-label={t('charts.share')} data-testid="dashboard-models">
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('table.model')}</TableCell>
                      <TableCell align="right">{t('table.quota')}</TableCell>
                      <TableCell align="right">{t('table.count')}</TableCell>
                      <TableCell align="right">{t('table.tokens')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {chart.byModel.map((item) => (
                      <TableRow key={item.model}>
                        <TableCell>{item.model}</TableCell>
                        <TableCell align="right">{quotaChartLabel(item.quota, quotaOptions)}</TableCell>
                        <TableCell align="right">{item.count}</TableCell>
                        <TableCell align="right">{item.tokens}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Paper>
            </Box>
          </>
        )}
      </Stack>
    </Box>
  );
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h6">{value}</Typography>
      </CardContent>
    </Card>
  );
}

function ChartCard({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Paper sx={{ p: 2, minWidth: 0 }} data-testid={testId}>
      <Typography variant="subtitle1" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}
