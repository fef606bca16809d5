import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Divider, Stack, TextField, Typography } from '@mui/material';
import { describeApiError } from '../../api/describe-api-error';
import { useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSaveOptions, type OptionValues } from './options-api';
import { BudgetEditor } from '../../components/budget-editor';
import { emptyBudgetForm, groupBudgetRows, groupBudgetsText, type BudgetForm } from '../../lib/budget-rules';
import { BudgetUsage } from '../../components/budget-usage';
import { useGetGroupBudgetsQuery } from '../../lib/budgets-api';
import { BUDGETS_NAMESPACE, budgetsLocales } from '../../components/budgets-locales';

interface Row {
  key: number;
  group: string;
  form: BudgetForm;
}

/**
 * The group budgets of the operation settings (option GroupBudgets, admins): one editor per group with
 * its current usage, and the notice threshold (BudgetNoticePercent).
 */
export function GroupBudgetsPanel({ options }: { options: OptionValues }) {
  const stored = options.values.GroupBudgets ?? '{}';
  const notice = options.values.BudgetNoticePercent ?? '0';
  const output = options.values.BudgetOutputTokens ?? '4096';
  // Remounted when the stored values change (after a save, or another admin's).
  return (
    <GroupBudgetsForm
      key={`${stored}\u0000${notice}\u0000${output}`}
      stored={stored}
      notice={notice}
      output={output}
    />
  );
}

function GroupBudgetsForm({ stored, notice, output }: { stored: string; notice: string; output: string }) {
  const { t } = useFeatureTranslation(BUDGETS_NAMESPACE, budgetsLocales);
  const notify = useNotify();
  const save = useSaveOptions();
  const usage = useGetGroupBudgetsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [rows, setRows] = useState<Row[]>(() => groupBudgetRows(stored).map((row, key) => ({ key, ...row })));
  const [percent, setPercent] = useState(notice);
  const [outputTokens, setOutputTokens] = useState(output);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const update = (key: number, patch: Partial<Row>) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));

  const submit = async () => {
    const built = groupBudgetsText(rows);
    if (!built.ok) {
      setError(
        built.field
          ? t('invalid', { field: `${built.group}.${built.field}` })
          : t('groups.invalidGroup', { group: built.group }),
      );
      return;
    }
    const trimmed = percent.trim() || '0';
    if (!/^\d+$/.test(trimmed) || Number(trimmed) > 100) {
      setError(t('groups.noticeInvalid'));
      return;
    }
    const tokens = outputTokens.trim();
    if (!/^\d+$/.test(tokens) || Number(tokens) < 1 || Number(tokens) > 10_000_000) {
      setError(t('groups.outputInvalid'));
      return;
    }
    setError(null);
    setSaving(true);
    const report = await save([
      { key: 'GroupBudgets', value: built.text },
      { key: 'BudgetNoticePercent', value: trimmed },
      { key: 'BudgetOutputTokens', value: tokens },
    ]);
    setSaving(false);
    if (report.failed.length > 0) {
      setError(describeApiError(report.failed[0].error, t));
      return;
    }
    notify(t('groups.saved'), 'success');
    void usage.refetch();
  };

  return (
    <Card variant="outlined" component="section" aria-label={t('groups.title')}>
      <CardContent>
        <Stack spacing={2}>
          <Box>
            <Typography variant="h6" component="h2">
              {t('groups.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('help')} {t('groups.help')}
            </Typography>
          </Box>
          {rows.map((row) => (
            <Stack key={row.key} spacing={1.5}>
              <Divider />
              <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                <TextField
                  label={t('groups.group')}
                  name={`group-budget-${row.key}`}
                  value={row.group}
                  onChange={(event) => update(row.key, { group: event.target.value })}
                  size="small"
                />
                <Button
                  color="error"
                  onClick={() => setRows((current) => current.filter((r) => r.key !== row.key))}
                >
                  {t('groups.remove')}
                </Button>
              </Stack>
              <BudgetEditor
                bare
                name={`group-budget-${row.key}`}
                value={row.form}
                onChange={(form) => update(row.key, { form })}
              />
              <BudgetUsage status={usage.data?.[row.group.trim()]} />
            </Stack>
          ))}
          <Box>
            <Button
              variant="outlined"
              onClick={() =>
                setRows((current) => [
                  ...current,
                  { key: Math.max(-1, ...current.map((r) => r.key)) + 1, group: '', form: emptyBudgetForm() },
                ])
              }
            >
              {t('groups.add')}
            </Button>
          </Box>
          <TextField
            label={t('groups.noticePercent')}
            name="BudgetNoticePercent"
            type="number"
            value={percent}
            onChange={(event) => setPercent(event.target.value)}
            helperText={t('groups.noticeHelp')}
            slotProps={{ htmlInput: { min: 0, max: 100, step: 1 } }}
          />
          <TextField
            label={t('groups.outputTokens')}
            name="BudgetOutputTokens"
            type="number"
            value={outputTokens}
            onChange={(event) => setOutputTokens(event.target.value)}
            helperText={t('groups.outputHelp')}
            slotProps={{ htmlInput: { min: 1, max: 10_000_000, step: 1 } }}
          />
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <Box>
            <Button variant="contained" onClick={() => void submit()} disabled={saving}>
              {t('groups.save')}
            </Button>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}
