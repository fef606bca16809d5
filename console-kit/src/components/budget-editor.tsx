import { Box, Stack, TextField, Typography } from '@mui/material';
import { useQuotaFormat } from '../format/use-quota-format';
import { useFeatureTranslation } from '../provider/console-i18n';
import { BUDGET_PERIODS, parseCap, type BudgetForm, type BudgetPeriod } from '../lib/budget-rules';
import { BUDGETS_NAMESPACE, budgetsLocales } from './budgets-locales';

export interface BudgetEditorProps {
  value: BudgetForm;
  onChange: (next: BudgetForm) => void;
  /** Prefix of the inputs' names (tests and autofill): `${name}.day.quota`. */
  name?: string;
  /** Hide the title and help (the caller shows its own). */
  bare?: boolean;
}

/** Quota and request caps per day, week and month (0 = no cap), as in the token, user and group editors. */
export function BudgetEditor({ value, onChange, name = 'budget', bare = false }: BudgetEditorProps) {
  const { t } = useFeatureTranslation(BUDGETS_NAMESPACE, budgetsLocales);
  const { formatQuota } = useQuotaFormat();
  const set = (period: BudgetPeriod, kind: 'quota' | 'requests', text: string) =>
    onChange({ ...value, [period]: { ...value[period], [kind]: text } });
  return (
    <Stack spacing={1.5} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      {!bare && (
        <Box component="legend" sx={{ p: 0 }}>
          <Typography variant="subtitle2">{t('title')}</Typography>
          <Typography variant="caption" color="text.secondary">
            {t('help')}
          </Typography>
        </Box>
      )}
      {BUDGET_PERIODS.map((period) => {
        const quota = Number(value[period].quota);
        // Marked as soon as it is typed: a cap is a whole number, 0 or more (the field, not only the form).
        const quotaBad = parseCap(value[period].quota) === null;
        const requestsBad = parseCap(value[period].requests) === null;
        return (
          <Stack
            key={period}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            sx={{ alignItems: { sm: 'flex-start' } }}
          >
            <Typography variant="body2" sx={{ minWidth: 72, pt: { sm: 2 } }}>
              {t(`periods.${period}`)}
            </Typography>
            <TextField
              label={t('quota')}
              name={`${name}.${period}.quota`}
              type="number"
              value={value[period].quota}
              onChange={(event) => set(period, 'quota', event.target.value)}
              error={quotaBad}
              helperText={
                quotaBad
                  ? t('invalid', { field: t('quota') })
                  : Number.isFinite(quota) && quota > 0
                    ? t('quotaHelp', { value: formatQuota(quota) })
                    : ' '
              }
              slotProps={{
                htmlInput: { min: 0, step: 1, 'aria-label': `${t(`periods.${period}`)} ${t('quota')}` },
              }}
              fullWidth
            />
            <TextField
              label={t('requests')}
              name={`${name}.${period}.requests`}
              type="number"
              value={value[period].requests}
              onChange={(event) => set(period, 'requests', event.target.value)}
              error={requestsBad}
              helperText={requestsBad ? t('invalid', { field: t('requests') }) : ' '}
              slotProps={{
                htmlInput: { min: 0, step: 1, 'aria-label': `${t(`periods.${period}`)} ${t('requests')}` },
              }}
              fullWidth
            />
          </Stack>
        );
      })}
    </Stack>
  );
}
