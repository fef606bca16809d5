import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  FormControlLabel,
  LinearProgress,
  MenuItem,
  Paper,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { UserRole } from '../../api/api-types';
import { describeApiError } from '../../api/describe-api-error';
import { useApiAction } from '../../api/use-api-action';
import { useSession } from '../../provider/use-session';
import {
  useExportAuditMutation,
  useGetTwoFactorQuery,
  useListAuditQuery,
  useSetAdminTwoFactorRequiredMutation,
  type AuditFilter,
} from '../../lib/security-api';
import { useSecurityTranslation } from '../../components/use-security-translation';
import { formatDateTime } from '../../format/date-time';
import { actionLabel, describeChanges, targetLabel } from './audit-rules';

export { describeChanges } from './audit-rules';

const PAGE_SIZE = 20;
const KINDS = ['all', 'user', 'token', 'channel', 'option', 'redemption', 'topup', 'log'] as const;

interface FilterForm {
  actor: string;
  kind: (typeof KINDS)[number];
  targetId: string;
  start: string;
  end: string;
}

const EMPTY: FilterForm = { actor: '', kind: 'all', targetId: '', start: '', end: '' };

/** The query of a filter form: datetime-local inputs become unix seconds. */
export function auditFilterOf(form: FilterForm): Partial<AuditFilter> {
  const seconds = (value: string) => (value ? Math.floor(new Date(value).getTime() / 1000) : undefined);
  return {
    actor: form.actor.trim() || undefined,
    action: form.kind === 'all' ? undefined : form.kind,
    target_id: form.targetId.trim() || undefined,
    start_timestamp: seconds(form.start),
    end_timestamp: seconds(form.end),
  };
}

function RequireTwoFactorSwitch() {
  const { t } = useSecurityTranslation();
  const { data: status } = useGetTwoFactorQuery();
  const [save] = useSetAdminTwoFactorRequiredMutation();
  const saving = useApiAction(t);
  const toggle = (value: boolean) =>
    saving.run(() => save(value).unwrap(), { success: t('audit.requireSaved'), fallback: t('panel.failed') });
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <Typography variant="subtitle1" component="h2">
        {t('audit.requireTitle')}
      </Typography>
      <FormControlLabel
        control={
          <Switch
            checked={status?.required_for_admins === true}
            disabled={saving.busy || !status}
            onChange={(event) => void toggle(event.target.checked)}
          />
        }
        label={t('audit.requireLabel')}
      />
      <Typography variant="body2" color="text.secondary">
        {t('audit.requireHint')}
      </Typography>
    </Paper>
  );
}

/**
 * The audit trail of administrative changes (admins): filters by who, what kind and when, pages of 20
 * newest first, and a CSV export of the same filter. Root also sets whether admins need 2FA here.
 */
export function AuditPage() {
  const { t } = useSecurityTranslation();
  const { user } = useSession();
  const [form, setForm] = useState<FilterForm>(EMPTY);
  const [filter, setFilter] = useState<Partial<AuditFilter>>({});
  const [page, setPage] = useState(1);
  const { data, isFetching, error } = useListAuditQuery({ ...filter, p: page, page_size: PAGE_SIZE });
  const [exportCsv] = useExportAuditMutation();
  const exporting = useApiAction(t);
  const set = (field: keyof FilterForm) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }));

  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilter(auditFilterOf(form));
    setPage(1);
  };
  const download = () =>
    exporting.run(
      async () => {
        const csv = await exportCsv(filter).unwrap();
        const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
        const link = document.createElement('a');
        link.href = url;
        link.download = `audit-${new Date().toISOString().slice(0, 10)}.csv`;
        link.click();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
      },
      { fallback: t('audit.loadFailed') },
    );

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, maxWidth: 1400, mx: 'auto' }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('audit.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('audit.intro')}
      </Typography>
      {(user?.role ?? 0) >= UserRole.root && <RequireTwoFactorSwitch />}
      <Stack
        component="form"
        direction={{ xs: 'column', md: 'row' }}
        spacing={1}
        sx={{ mb: 2, flexWrap: 'wrap', gap: 1 }}
        onSubmit={search}
      >
        <TextField
          size="small"
          label={t('audit.actor')}
          name="actor"
          value={form.actor}
          onChange={(e) => set('actor')(e.target.value)}
        />
        <TextField
          select
          size="small"
          label={t('audit.action')}
          value={form.kind}
          onChange={(e) => set('kind')(e.target.value)}
          sx={{ minWidth: 140 }}
          slotProps={{ htmlInput: { 'data-testid': 'audit-kind' } }}
        >
          {KINDS.map((kind) => (
            <MenuItem key={kind} value={kind}>
              {t(`audit.kinds.${kind}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label={t('audit.targetId')}
          value={form.targetId}
          onChange={(e) => set('targetId')(e.target.value)}
        />
        <TextField
          size="small"
          type="datetime-local"
          label={t('audit.start')}
          value={form.start}
          onChange={(e) => set('start')(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="datetime-local"
          label={t('audit.end')}
          value={form.end}
          onChange={(e) => set('end')(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button type="submit" variant="contained">
          {t('audit.search')}
        </Button>
        <Button
          onClick={() => {
            setForm(EMPTY);
            setFilter({});
            setPage(1);
          }}
        >
          {t('audit.reset')}
        </Button>
        <Button variant="outlined" onClick={() => void download()} disabled={exporting.busy}>
          {t('audit.export')}
        </Button>
      </Stack>
      {error && <Alert severity="error">{describeApiError(error, t, t('audit.loadFailed'))}</Alert>}
      <Paper variant="outlined">
        {isFetching && <LinearProgress />}
        <TableContainer>
          <Table size="small" aria-label={t('audit.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('audit.time')}</TableCell>
                <TableCell>{t('audit.actor')}</TableCell>
                <TableCell>{t('audit.action')}</TableCell>
                <TableCell>{t('audit.target')}</TableCell>
                <TableCell>{t('audit.ip')}</TableCell>
                <TableCell>{t('audit.changes')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data?.items.map((entry) => (
                <TableRow key={entry.id} data-testid="audit-row">
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.created_at)}</TableCell>
                  <TableCell>{entry.actor_name}</TableCell>
                  <TableCell title={entry.action}>{actionLabel(entry.action, t)}</TableCell>
                  <TableCell>{targetLabel(entry, t)}</TableCell>
                  <TableCell>{entry.ip}</TableCell>
                  <TableCell sx={{ whiteSpace: 'pre-line', wordBreak: 'break-word', maxWidth: 480 }}>
                    {describeChanges(entry, t).join('\n')}
                  </TableCell>
                </TableRow>
              ))}
              {data && data.items.length === 0 && (
                <TableRow>
                  <TableCell colSpan={6} align="center">
                    {t('audit.empty')}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={data?.total ?? 0}
          page={page - 1}
          rowsPerPage={PAGE_SIZE}
          rowsPerPageOptions={[]}
          onPageChange={(_event, next) => setPage(next + 1)}
          labelDisplayedRows={({ from, to, count }) => t('audit.displayed', { from, to, count })}
        />
      </Paper>
    </Box>
  );
}
