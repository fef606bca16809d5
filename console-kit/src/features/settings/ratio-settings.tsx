import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  CircularProgress,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  Typography,
} from '@mui/material';
import { describeApiError } from '../../api/describe-api-error';
import { useApiAction } from '../../api/use-api-action';
import { useNotify } from '../../provider/console-context';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { OptionsPanel, type FieldSpec } from './options-panel';
import { useGetUnpricedModelsQuery, useResetModelRatioMutation, type OptionValues } from './options-api';
import { ModelPriceDialog } from './model-price-dialog';
import { BatchBar, PriceTableEditor, useSavePriceRows } from './price-table-editor';
import { applyBatch, buildPriceRows, emptyDraft, modelsWithoutPrice, type PriceRow } from './price-table';
import { useSettingsTranslation } from './settings-locales';

const RATIO_FIELDS: FieldSpec[] = [
  { key: 'ModelPrice', kind: 'json', json: 'number-map' },
  { key: 'ModelRatio', kind: 'json', json: 'number-map' },
  { key: 'CompletionRatio', kind: 'json', json: 'number-map' },
  { key: 'CacheRatio', kind: 'json', json: 'number-map' },
  { key: 'CacheCreationRatio', kind: 'json', json: 'number-map' },
  { key: 'ImageRatio', kind: 'json', json: 'number-map' },
  { key: 'AudioRatio', kind: 'json', json: 'number-map' },
  { key: 'AudioCompletionRatio', kind: 'json', json: 'number-map' },
];

type RatioTab = 'json' | 'visual' | 'unset';
const RATIO_TABS: RatioTab[] = ['json', 'visual', 'unset'];

/** The operation tab's ratio area: JSON editors, the visual price table, models with no price. */
export function RatioSettings({ options }: { options: OptionValues }) {
  const { t } = useSettingsTranslation();
  const [tab, setTab] = useState<RatioTab>('json');
  const [confirmReset, setConfirmReset] = useState(false);
  const [resetRatios] = useResetModelRatioMutation();
  const resetting = useApiAction(t);

  const reset = async () => {
    setConfirmReset(false);
    await resetting.run(() => resetRatios().unwrap(), { success: t('ratio.resetDone') });
  };

  return (
    <Card variant="outlined" component="section" aria-label={t('panels.ratioJson.title')}>
      <CardContent>
        <Stack spacing={2}>
          <Stack
            direction="row"
            sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
          >
            <Tabs value={tab} onChange={(_event, value: RatioTab) => setTab(value)} variant="scrollable">
              {RATIO_TABS.map((value) => (
                <Tab key={value} value={value} label={t(`ratio.tabs.${value}`)} />
              ))}
            </Tabs>
            <Button
              color="warning"
              variant="outlined"
              onClick={() => setConfirmReset(true)}
              disabled={resetting.busy}
            >
              {t('ratio.reset')}
            </Button>
          </Stack>
          {tab === 'json' && <OptionsPanel id="ratioJson" fields={RATIO_FIELDS} options={options} />}
          {tab === 'visual' && <PriceTableEditor options={options} />}
          {tab === 'unset' && <UnsetModels options={options} />}
        </Stack>
      </CardContent>
      <ConfirmDialog
        open={confirmReset}
        title={t('actions.confirmTitle')}
        message={t('ratio.resetConfirm')}
        confirmLabel={t('actions.confirm')}
        cancelLabel={t('actions.cancel')}
        onCancel={() => setConfirmReset(false)}
        onConfirm={() => void reset()}
      />
    </Card>
  );
}

/**
 * Enabled models the relay cannot bill (the server's answer, from the same price lookup the relay
 * uses); a price or ratio set here is saved at once.
 */
function UnsetModels({ options }: { options: OptionValues }) {
  const { t } = useSettingsTranslation();
  const notify = useNotify();
  const enabled = useGetUnpricedModelsQuery(undefined, { refetchOnMountOrArgChange: true });
  const savePriceRows = useSavePriceRows();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const stored = options.values;

  if (enabled.isLoading) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
        <CircularProgress aria-label={t('ratio.tabs.unset')} />
      </Box>
    );
  }
  if (enabled.isError) {
    return <Alert severity="error">{describeApiError(enabled.error, t, t('unset.loadFailed'))}</Alert>;
  }
  const missing = modelsWithoutPrice(
    enabled.data ?? [],
    stored.ModelPrice ?? '{}',
    stored.ModelRatio ?? '{}',
  );
  const current = () =>
    buildPriceRows(stored.ModelPrice ?? '{}', stored.ModelRatio ?? '{}', stored.CompletionRatio ?? '{}');
  const saveRows = async (added: PriceRow[]) => {
    const names = new Set(added.map((row) => row.name));
    if (await savePriceRows(stored, [...current().filter((row) => !names.has(row.name)), ...added])) {
      setSelected(new Set());
      void enabled.refetch();
    }
  };

  if (missing.length === 0) {
    return <Alert severity="success">{t('unset.allSet')}</Alert>;
  }
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {t('unset.description')}
      </Typography>
      <BatchBar
        selectedCount={selected.size}
        onApply={(mode, first, second) => {
          const result = applyBatch(
            missing.map((name) => ({ name })),
            selected,
            mode,
            first,
            second,
          );
          if ('problem' in result) {
            notify(t(`priceTable.batch.${result.problem}`), 'error');
            return false;
          }
          void saveRows(result.rows.filter((row) => selected.has(row.name)));
          return true;
        }}
      />
      <Table size="small" aria-label={t('ratio.tabs.unset')}>
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" />
            <TableCell>{t('priceTable.columns.name')}</TableCell>
            <TableCell>{t('priceTable.columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {missing.map((name) => (
            <TableRow key={name}>
              <TableCell padding="checkbox">
                <Checkbox
                  checked={selected.has(name)}
                  slotProps={{ input: { 'aria-label': t('priceTable.select', { name }) } }}
                  onChange={() =>
                    setSelected((currentSelection) => {
                      const next = new Set(currentSelection);
                      if (next.has(name)) next.delete(name);
                      else next.add(name);
                      return next;
                    })
                  }
                />
              </TableCell>
              <TableCell>{name}</TableCell>
              <TableCell>
                <Button size="small" onClick={() => setEditing(name)}>
                  {t('unset.set')}
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <ModelPriceDialog
        open={editing !== null}
        editing={false}
        nameLocked
        initial={emptyDraft(editing ?? '')}
        otherNames={new Set()}
        onClose={() => setEditing(null)}
        onSubmit={(row) => {
          setEditing(null);
          void saveRows([row]);
        }}
      />
    </Stack>
  );
}
