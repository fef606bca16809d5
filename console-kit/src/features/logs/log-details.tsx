import { Box, Typography } from '@mui/material';
import type { TFunction } from 'i18next';
import { billingLine, otherDetails, PER_CALL_HIDDEN_KEYS, type LogEntry, type LogOther } from './log-rules';

const BOOLEAN_VALUES = new Set(['true', 'false']);

/** The expanded part of a log row: every key of `other` (docs/decisions.md#console-extras), plus content, request id, IP. */
export function LogDetails({
  entry,
  other,
  t,
  quotaPerUnit,
  formatCost,
}: {
  entry: LogEntry;
  other: LogOther;
  t: TFunction;
  quotaPerUnit: number;
  formatCost: (quota: number) => string;
}) {
  const billing = billingLine(entry, other, quotaPerUnit, formatCost);
  const lines = otherDetails(other).filter(
    (line) => billing?.key !== 'perCall' || !PER_CALL_HIDDEN_KEYS.has(line.key),
  );
  const extra: { label: string; value: string }[] = [];
  if (billing) {
    extra.push({ label: t('billing.label'), value: t(`billing.${billing.key}`, billing.params) });
  }
  if (entry.content) {
    extra.push({ label: t('row.content'), value: entry.content });
  }
  if (entry.request_id) {
    extra.push({ label: t('row.requestId'), value: entry.request_id });
  }
  if (entry.ip) {
    extra.push({ label: t('row.ip'), value: entry.ip });
  }
  if (entry.node_name) {
    extra.push({ label: t('row.node'), value: entry.node_name });
  }
  const rows = [
    ...extra.slice(0, billing ? 1 : 0).map((item) => ({ ...item, key: 'billing' })),
    ...lines.map((line) => ({
      label: line.known ? t(`other.${line.key}`) : line.key,
      value:
        line.value === 'byTokens' && line.key === 'model_price'
          ? t('other.byTokens')
          : line.value === 'unset' && line.key === 'user_group_ratio'
            ? t('other.unset')
            : line.key === 'client_type'
              ? t(`other.clientTypes.${line.value}`, { defaultValue: line.value })
              : BOOLEAN_VALUES.has(line.value)
                ? t(`other.${line.value}`)
                : line.value,
      key: line.key,
    })),
    ...extra.slice(billing ? 1 : 0).map((item) => ({ ...item, key: item.label })),
  ];
  if (rows.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t('row.noDetails')}
      </Typography>
    );
  }
  return (
    <Box
      component="dl"
      data-testid="log-other"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'max-content minmax(0, 1fr)' },
        columnGap: 2,
        rowGap: 0.5,
      }}
    >
      {rows.map((row) => (
        <Box key={row.key} sx={{ display: 'contents' }} data-key={row.key}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {row.label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-all' }}>
            {row.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
