import { useId, useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import {
  draftToRow,
  inputPriceToRatio,
  outputPriceToCompletionRatio,
  parseNumberField,
  ratiosToTokenPrices,
  type BillingMode,
  type DraftProblem,
  type ModelDraft,
  type PriceRow,
} from './price-table';
import { useSettingsTranslation } from './settings-locales';

export interface ModelPriceDialogProps {
  open: boolean;
  initial: ModelDraft;
  /** Editing an existing row (title) or a name that must not change (models with no ratio). */
  editing: boolean;
  nameLocked?: boolean;
  /** Names of the other rows, for the duplicate check. */
  otherNames: ReadonlySet<string>;
  onSubmit: (row: PriceRow) => void;
  onClose: () => void;
}

export function ModelPriceDialog(props: ModelPriceDialogProps) {
  // Remounted per opening so the form starts from `initial`.
  return props.open ? <ModelPriceForm {...props} /> : null;
}

function ModelPriceForm({
  initial,
  editing,
  nameLocked,
  otherNames,
  onSubmit,
  onClose,
}: ModelPriceDialogProps) {
  const { t } = useSettingsTranslation();
  const [draft, setDraft] = useState<ModelDraft>(initial);
  const [problem, setProblem] = useState<DraftProblem | null>(null);
  const id = useId();
  const set = <K extends keyof ModelDraft>(key: K, value: ModelDraft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setProblem(null);
  };
  const errorOf = (field: keyof ModelDraft) =>
    problem?.field === field ? t(`priceTable.problems.${problem.message}`) : undefined;
  const perRequest = draft.mode === 'per-request';

  const preview = (() => {
    if (perRequest) return null;
    if (draft.tokenEntry === 'price') {
      const input = parseNumberField(draft.inputPrice);
      const output = parseNumberField(draft.outputPrice);
      if (typeof input !== 'number') return null;
      const completion = typeof output === 'number' ? outputPriceToCompletionRatio(input, output) : undefined;
      return t('priceTable.dialog.preview', {
        ratio: inputPriceToRatio(input),
        completion: completion ?? '-',
      });
    }
    const ratio = parseNumberField(draft.ratio);
    const completion = parseNumberField(draft.completionRatio);
    if (typeof ratio !== 'number') return null;
    const prices = ratiosToTokenPrices(ratio, typeof completion === 'number' ? completion : 1);
    return t('priceTable.dialog.previewPrices', prices);
  })();

  const submit = () => {
    const result = draftToRow(draft, otherNames);
    if ('problem' in result) {
      setProblem(result.problem);
      return;
    }
    onSubmit(result.row);
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={`${id}-title`} fullWidth maxWidth="sm">
      <DialogTitle id={`${id}-title`}>
        {editing ? t('priceTable.dialog.editTitle') : t('priceTable.dialog.addTitle')}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t('priceTable.dialog.name')}
            name="model_name"
            value={draft.name}
            disabled={nameLocked}
            onChange={(event) => set('name', event.target.value)}
            error={Boolean(errorOf('name'))}
            helperText={errorOf('name')}
            fullWidth
          />
          <RadioGroup
            row
            aria-label={t('priceTable.dialog.mode')}
            value={draft.mode}
            onChange={(event) => set('mode', event.target.value as BillingMode)}
          >
            <FormControlLabel
              value="per-token"
              control={<Radio />}
              label={t('priceTable.billing.per-token')}
            />
            <FormControlLabel
              value="per-request"
              control={<Radio />}
              label={t('priceTable.billing.per-request')}
            />
          </RadioGroup>
          <TextField
            label={t('priceTable.dialog.price')}
            name="model_price"
            value={draft.price}
            disabled={!perRequest}
            onChange={(event) => set('price', event.target.value)}
            error={Boolean(errorOf('price'))}
            helperText={errorOf('price') ?? (perRequest ? t('priceTable.dialog.fixedDisables') : undefined)}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            fullWidth
          />
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Typography variant="body2" color={perRequest ? 'text.disabled' : 'text.secondary'}>
              {t('priceTable.dialog.tokenEntry')}
            </Typography>
            <ToggleButtonGroup
              size="small"
              exclusive
              disabled={perRequest}
              value={draft.tokenEntry}
              onChange={(_event, value: ModelDraft['tokenEntry'] | null) => {
                if (value) set('tokenEntry', value);
              }}
            >
              <ToggleButton value="ratio">{t('priceTable.dialog.byRatio')}</ToggleButton>
              <ToggleButton value="price">{t('priceTable.dialog.byPrice')}</ToggleButton>
            </ToggleButtonGroup>
          </Stack>
          {draft.tokenEntry === 'ratio' ? (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={t('priceTable.dialog.ratio')}
                name="model_ratio"
                value={draft.ratio}
                disabled={perRequest}
                onChange={(event) => set('ratio', event.target.value)}
                error={Boolean(errorOf('ratio'))}
                helperText={errorOf('ratio')}
                slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                fullWidth
              />
              <TextField
                label={t('priceTable.dialog.completionRatio')}
                name="completion_ratio"
                value={draft.completionRatio}
                disabled={perRequest}
                onChange={(event) => set('completionRatio', event.target.value)}
                error={Boolean(errorOf('completionRatio'))}
                helperText={errorOf('completionRatio')}
                slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                fullWidth
              />
            </Stack>
          ) : (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={t('priceTable.dialog.inputPrice')}
                name="input_price"
                value={draft.inputPrice}
                disabled={perRequest}
                onChange={(event) => set('inputPrice', event.target.value)}
                error={Boolean(errorOf('inputPrice'))}
                helperText={errorOf('inputPrice')}
                slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                fullWidth
              />
              <TextField
                label={t('priceTable.dialog.outputPrice')}
                name="output_price"
                value={draft.outputPrice}
                disabled={perRequest}
                onChange={(event) => set('outputPrice', event.target.value)}
                error={Boolean(errorOf('outputPrice'))}
                helperText={errorOf('outputPrice')}
                slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                fullWidth
              />
            </Stack>
          )}
          {preview && <Alert severity="info">{preview}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('priceTable.dialog.cancel')}</Button>
        <Button variant="contained" onClick={submit}>
          {t('priceTable.dialog.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
