import { Box, Card, CardContent, CircularProgress, LinearProgress, Stack, Typography } from '@mui/material';
import { useQuotaFormat } from '../format/use-quota-format';
import { useFeatureTranslation } from '../provider/console-i18n';
import { usageColor, usedPercent, type BudgetStatus, type PeriodUsage } from '../lib/budget-rules';
import { useGetSelfBudgetsQuery } from '../lib/budgets-api';
import { BUDGETS_NAMESPACE, budgetsLocales } from './budgets-locales';

/** One period: used / cap for quota and requests, a bar, and when it resets. */
function PeriodLine({ usage, compact }: { usage: PeriodUsage; compact: boolean }) {
  const { t } = useFeatureTranslation(BUDGETS_NAMESPACE, budgetsLocales);
  const { formatQuota } = useQuotaFormat();
  const parts = [
    usage.quota_cap
      ? t('usage.quota', { used: formatQuota(usage.quota_used), cap: formatQuota(usage.quota_cap) })
      : null,
    usage.request_cap ? t('usage.requests', { used: usage.requests_used, cap: usage.request_cap }) : null,
  ].filter(Boolean);
  const left = [
    usage.quota_remaining !== null
      ? t('usage.quotaLeft', { value: formatQuota(usage.quota_remaining) })
      : null,
    usage.requests_remaining !== null ? t('usage.requestsLeft', { value: usage.requests_remaining }) : null,
  ].filter(Boolean);
  const resets = t('usage.resets', { resets: usage.resets, zone: usage.zone });
  return (
    <Box data-testid={`budget-${usage.period}`}>
      <Typography variant={compact ? 'caption' : 'body2'} component="div">
        <strong>{t(`current.${usage.period}`)}</strong> {parts.join(' · ')}
        {!compact && (
          <Typography variant="caption" color="text.secondary" component="span">
            {' '}
            · {left.join(' · ')} · {resets}
          </Typography>
        )}
      </Typography>
      <LinearProgress
        variant="determinate"
        value={usedPercent(usage)}
        color={usageColor(usage)}
        aria-label={`${t(`current.${usage.period}`)} ${usedPercent(usage)}%`}
        title={[...left, resets].join(' · ')}
        sx={{ height: compact ? 4 : 6, borderRadius: 1 }}
      />
    </Box>
  );
}

/** Used and remaining per current period of one budget; a note when none is set. */
export function BudgetUsage({
  status,
  compact = false,
}: {
  status: BudgetStatus | undefined;
  compact?: boolean;
}) {
  const { t } = useFeatureTranslation(BUDGETS_NAMESPACE, budgetsLocales);
  if (!status || status.periods.length === 0) {
    return compact ? null : (
      <Typography variant="body2" color="text.secondary">
        {t('usage.none')}
      </Typography>
    );
  }
  return (
    <Stack spacing={compact ? 0.5 : 1} sx={{ minWidth: compact ? 140 : undefined }}>
      {status.periods.map((usage) => (
        <PeriodLine key={usage.period} usage={usage} compact={compact} />
      ))}
    </Stack>
  );
}

/**
 * The signed-in user's budgets (their own and their group's) for the personal page and the dashboard;
 * nothing at all when neither has a budget.
 */
export function SelfBudgetCard() {
  const { t } = useFeatureTranslation(BUDGETS_NAMESPACE, budgetsLocales);
  const query = useGetSelfBudgetsQuery(undefined, { refetchOnMountOrArgChange: 30 });
  if (query.isLoading) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 1 }}>
        <CircularProgress size={20} aria-label={t('title')} />
      </Box>
    );
  }
  // The card is a side note of the page: a failed load leaves it out rather than alarm.
  const data = query.isError ? undefined : query.data;
  if (!data || (data.user.periods.length === 0 && data.group.periods.length === 0)) {
    return null;
  }
  return (
    <Card variant="outlined" component="section" aria-label={t('title')}>
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            {t('title')}
          </Typography>
          {data.user.periods.length > 0 && (
            <Stack spacing={1}>
              <Typography variant="subtitle2">{t('usage.user')}</Typography>
              <BudgetUsage status={data.user} />
            </Stack>
          )}
          {data.group.periods.length > 0 && (
            <Stack spacing={1}>
              <Typography variant="subtitle2">{t('usage.group', { group: data.group.name })}</Typography>
              <BudgetUsage status={data.group} />
            </Stack>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
