import { useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  MenuItem,
  Stack,
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
import { useNotify } from '../../provider/console-context';
import { changedOptionEntries } from './option-save';
import { notifySaveReport } from './options-panel';
import { useSaveOptions, type OptionValues } from './options-api';
import { ModelPriceDialog } from './model-price-dialog';
import {
  applyBatch,
  billingMode,
  buildPriceRows,
  emptyDraft,
  PRICE_TABLE_PAGE_SIZE,
  priceRowsToOptions,
  ratiosToTokenPrices,
  rowToDraft,
  type BatchMode,
  type PriceRow,
} from './price-table';
import { useSettingsTranslation } from './settings-locales';

export const PRICE_KEYS = ['ModelPrice', 'ModelRatio', 'CompletionRatio'] as const;
const PRICE_FIELDS = PRICE_KEYS.map((key) => ({ key, kind: 'json' as const }));
const BATCH_MODES: BatchMode[] = ['price', 'ratio', 'completionRatio', 'bothRatio'];

/** Saves a whole table as the three price options (only those that changed). */
export function useSavePriceRows() {
  const { t } = useSettingsTranslation();
  const notify = useNotify();
  const save = useSaveOptions();
  return async (stored: Readonly<Record<string, string>>, rows: readonly PriceRow[]): Promise<boolean> => {
    const next: Record<string, string> = { ...priceRowsToOptions(rows) };
    const entries = changedOptionEntries(stored, next, PRICE_FIELDS);
    if (entries.length === 0) {
      notify(t('messages.nothingChanged'), 'warning');
      return false;
    }
    const report = await save(entries);
    notifySaveReport(report, entries, notify, t);
    return report.outcome === 'saved';
  };
}

export interface BatchBarProps {
  selectedCount: number;
  onApply: (mode: BatchMode, first: string, second: string) => boolean;
}

/** Batch set: choose what to set, the value(s), apply to the selected models. */
export function BatchBar({ selectedCount, onApply }: BatchBarProps) {
  const { t } = useSettingsTranslation();
  const [mode, setMode] = useState<BatchMode>('ratio');
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  return (
    <Stack
      direction={{ xs: 'column', md: 'row' }}
      spacing={1}
      sx={{ alignItems: { md: 'center' } }}
      role="group"
      aria-label={t('priceTable.batch.title')}
    >
      <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
        {t('priceTable.batch.title')} · {t('priceTable.selected', { count: selectedCount })}
      </Typography>
      <TextField
        select
        size="small"
        label={t('priceTable.batch.mode')}
        value={mode}
        onChange={(event) => setMode(event.target.value as BatchMode)}
        sx={{ minWidth: 180 }}
      >
        {BATCH_MODES.map((value) => (
          <MenuItem key={value} value={value}>
            {t(`priceTable.batch.modes.${value}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        name="batch_value"
        label={mode === 'bothRatio' ? t('priceTable.batch.modes.ratio') : t('priceTable.batch.value')}
        value={first}
        onChange={(event) => setFirst(event.target.value)}
        slotProps={{ htmlInput: { inputMode: 'decimal' } }}
      />
      {mode === 'bothRatio' && (
        <TextField
          size="small"
          name="batch_second_value"
          label={t('priceTable.batch.secondValue')}
          value={second}
          onChange={(event) => setSecond(event.target.value)}
          slotProps={{ htmlInput: { inputMode: 'decimal' } }}
        />
      )}
      <Button
        variant="outlined"
        onClick={() => {
          if (onApply(mode, first, second)) {
            setFirst('');
            setSecond('');
          }
        }}
      >
        {t('priceTable.batch.apply')}
      </Button>
    </Stack>
  );
}

/**
 * The visual model price table: per-token (ratio) or per-request (fixed price) billing per model,
 * add/edit/delete, batch set, search and 10 rows a page. Changes stay local until "Apply changes".
 */
export function PriceTableEditor({ options }: { options: OptionValues }) {
  const stored = options.values;
  // Remount on new stored values (after a save the options come back fresh).
  const key = PRICE_KEYS.map((name) => stored[name] ?? '').join('\u0000');
  return (
    <PriceTable key={key} stored={stored} readOnly={PRICE_KEYS.some((name) => options.rootOnly.has(name))} />
  );
}

function PriceTable({ stored, readOnly }: { stored: Readonly<Record<string, string>>; readOnly: boolean }) {
  const { t } = useSettingsTranslation();
  const notify = useNotify();
  const savePriceRows = useSavePriceRows();
  const [rows, setRows] = useState<PriceRow[]>(() =>
    buildPriceRows(stored.ModelPrice ?? '{}', stored.ModelRatio ?? '{}', stored.CompletionRatio ?? '{}'),
  );
  const [dirty, setDirty] = useState(false);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<{ row: PriceRow | null } | null>(null);
  const [saving, setSaving] = useState(false);

  const filtered = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return needle ? rows.filter((row) => row.name.toLowerCase().includes(needle)) : rows;
  }, [rows, search]);
  const pageRows = filtered.slice(page * PRICE_TABLE_PAGE_SIZE, (page + 1) * PRICE_TABLE_PAGE_SIZE);
  const allOnPageSelected = pageRows.length > 0 && pageRows.every((row) => selected.has(row.name));

  const change = (next: PriceRow[]) => {
    setRows(next);
    setDirty(true);
  };
  const toggle = (name: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });

  const applyBatchSet = (mode: BatchMode, first: string, second: string): boolean => {
    const result = applyBatch(rows, selected, mode, first, second);
    if ('problem' in result) {
      notify(t(`priceTable.batch.${result.problem}`), 'error');
      return false;
    }
    change(result.rows);
    notify(t('priceTable.batch.done', { count: selected.size }), 'success');
    return true;
  };

  const apply = async () => {
    setSaving(true);
    try {
      if (await savePriceRows(stored, rows)) setDirty(false);
    } finally {
      setSaving(false);
    }
  };

  const number = (value: number | undefined) => (value === undefined ? '-' : String(value));

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          size="small"
          label={t('priceTable.search')}
          name="model_search"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(0);
          }}
          sx={{ flexGrow: 1 }}
        />
        <Button variant="outlined" onClick={() => setDialog({ row: null })} disabled={readOnly}>
          {t('priceTable.add')}
        </Button>
        <Button variant="contained" onClick={() => void apply()} disabled={saving || readOnly}>
          {t('priceTable.apply')}
        </Button>
      </Stack>
      {dirty && <Alert severity="warning">{t('priceTable.unsaved')}</Alert>}
      <BatchBar selectedCount={selected.size} onApply={applyBatchSet} />
      <TableContainer>
        <Table size="small" aria-label={t('ratio.tabs.visual')}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  checked={allOnPageSelected}
                  slotProps={{ input: { 'aria-label': t('priceTable.selectAll') } }}
                  onChange={(event) =>
                    setSelected((current) => {
                      const next = new Set(current);
                      for (const row of pageRows) {
                        if (event.target.checked) next.add(row.name);
                        else next.delete(row.name);
                      }
                      return next;
                    })
                  }
                />
              </TableCell>
              <TableCell>{t('priceTable.columns.name')}</TableCell>
              <TableCell>{t('priceTable.columns.billing')}</TableCell>
              <TableCell>{t('priceTable.columns.ratio')}</TableCell>
              <TableCell>{t('priceTable.columns.completionRatio')}</TableCell>
              <TableCell>{t('priceTable.columns.inputPrice')}</TableCell>
              <TableCell>{t('priceTable.columns.outputPrice')}</TableCell>
              <TableCell>{t('priceTable.columns.price')}</TableCell>
              <TableCell>{t('priceTable.columns.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {pageRows.map((row) => {
              const mode = billingMode(row);
              const prices =
                mode === 'per-token' && row.ratio !== undefined
                  ? ratiosToTokenPrices(row.ratio, row.completionRatio ?? 1)
                  : null;
              return (
                <TableRow key={row.name} data-testid={`price-row-${row.name}`}>
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={selected.has(row.name)}
                      onChange={() => toggle(row.name)}
                      slotProps={{ input: { 'aria-label': t('priceTable.select', { name: row.name }) } }}
                    />
                  </TableCell>
                  <TableCell>{row.name}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={mode === 'per-request' ? 'secondary' : 'primary'}
                      label={t(`priceTable.billing.${mode}`)}
                    />
                  </TableCell>
                  <TableCell>{mode === 'per-token' ? number(row.ratio) : '-'}</TableCell>
                  <TableCell>{mode === 'per-token' ? number(row.completionRatio) : '-'}</TableCell>
                  <TableCell>{prices ? `$${prices.input}` : '-'}</TableCell>
                  <TableCell>{prices ? `$${prices.output}` : '-'}</TableCell>
                  <TableCell>{row.price === undefined ? '-' : `$${row.price}`}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Button size="small" onClick={() => setDialog({ row })} disabled={readOnly}>
                      {t('priceTable.edit')}
                    </Button>
                    <Button
                      size="small"
                      color="error"
                      disabled={readOnly}
                      onClick={() => {
                        change(rows.filter((other) => other.name !== row.name));
                        setSelected((current) => {
                          const next = new Set(current);
                          next.delete(row.name);
                          return next;
                        });
                      }}
                    >
                      {t('priceTable.delete')}
                    </Button>
                  </TableCell>
                </TableRow>
              );
            })}
            {pageRows.length === 0 && (
              <TableRow>
                <TableCell colSpan={9} align="center">
                  {t('priceTable.empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <Box>
        <TablePagination
          component="div"
          count={filtered.length}
          page={Math.min(page, Math.max(0, Math.ceil(filtered.length / PRICE_TABLE_PAGE_SIZE) - 1))}
          rowsPerPage={PRICE_TABLE_PAGE_SIZE}
          rowsPerPageOptions={[PRICE_TABLE_PAGE_SIZE]}
          onPageChange={(_event, next) => setPage(next)}
          labelDisplayedRows={({ from, to, count }) => t('pagination.displayed', { from, to, count })}
        />
      </Box>
      <ModelPriceDialog
        open={dialog !== null}
        editing={dialog?.row != null}
        initial={dialog?.row ? rowToDraft(dialog.row) : emptyDraft()}
        otherNames={new Set(rows.map((row) => row.name).filter((name) => name !== dialog?.row?.name))}
        onClose={() => setDialog(null)}
        onSubmit={(row) => {
          const original = dialog?.row?.name;
          const next = original
            ? rows.map((other) => (other.name === original ? row : other))
            : [...rows, row];
          change(next.sort((a, b) => a.name.localeCompare(b.name)));
          setDialog(null);
        }}
      />
    </Stack>
  );
}
