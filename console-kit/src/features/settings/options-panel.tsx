import { useId, useState, type ReactNode } from 'react';
import {
  Alert,
  type AlertColor,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import type { TFunction } from 'i18next';
import { isRoot } from '../../shell/shell-nav';
import { describeApiError } from '../../api/describe-api-error';
import { useApiAction } from '../../api/use-api-action';
import { useSession } from '../../provider/use-session';
import { useNotify } from '../../provider/console-context';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { checkJsonText, formatJsonText, type JsonShape } from './json-text';
import { changedOptionEntries, type OptionEntry, type OptionFieldKind, type SaveReport } from './option-save';
import { useSaveOptions, useUpdateOptionMutation, type OptionValues } from './options-api';
import { useSettingsTranslation } from './settings-locales';

/** i18n key of an option: dots would nest, so they become underscores. */
export const fieldKey = (key: string): string => key.replace(/\./g, '_');

export interface PanelContext {
  /** What the form shows: the draft over the stored values. */
  values: Readonly<Record<string, string>>;
  stored: Readonly<Record<string, string>>;
  set: (key: string, value: string) => void;
  readOnly: (key: string) => boolean;
  errors: Readonly<Record<string, string>>;
  setError: (key: string, message: string | null) => void;
  t: TFunction;
}

export interface FieldSpec {
  key: string;
  kind: OptionFieldKind;
  /** Choices of a select, labelled `choices.<key>.<value>`. */
  choices?: readonly string[];
  min?: number;
  max?: number;
  json?: JsonShape;
  /** Switching this toggle off asks first; cancelling leaves it on. */
  confirmOff?: boolean;
  disabledWhen?: (values: Readonly<Record<string, string>>) => boolean;
  /** Takes the whole row (textareas and JSON editors always do). */
  wide?: boolean;
  /** Extra check on save; returns the text to show or null. */
  validate?: (value: string, ctx: PanelContext) => string | null;
  render?: (ctx: PanelContext) => ReactNode;
}

export interface OptionsPanelProps {
  /** Title `panels.<id>.title`, optional description `panels.<id>.description`. */
  id: string;
  fields: readonly FieldSpec[];
  options: OptionValues;
  /** A warning shown above the fields. */
  warning?: ReactNode;
  /** Panel-wide check before anything is sent; returns the text to show or null. */
  validate?: (entries: OptionEntry[], ctx: PanelContext) => string | null;
  /** Adjusts the entries just before they are sent (e.g. rounding). */
  prepare?: (entries: OptionEntry[], ctx: PanelContext) => OptionEntry[];
  extra?: (ctx: PanelContext) => ReactNode;
}

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^-?\d+$/;

export function fieldProblem(spec: FieldSpec, value: string, ctx: PanelContext): string | null {
  const { t } = ctx;
  // A field's own check speaks first: it carries the spec's specific message (payment JSON, Well-Known).
  const own = spec.validate?.(value, ctx);
  if (own) return own;
  if (spec.kind === 'int' || spec.kind === 'float') {
    const trimmed = value.trim();
    if (!(spec.kind === 'int' ? INTEGER : NUMBER).test(trimmed)) {
      return t('validation.notNumber');
    }
    const n = Number(trimmed);
    if (spec.min !== undefined && n < spec.min) return t('validation.min', { min: spec.min });
    if (spec.max !== undefined && n > spec.max) return t('validation.max', { max: spec.max });
  }
  if (spec.kind === 'json') {
    const problem = checkJsonText(value, spec.json);
    if (problem)
      return t(problem === 'invalid' ? 'validation.notJson' : `validation.jsonShape.${spec.json ?? 'any'}`);
  }
  if (spec.kind === 'url' && value.trim() !== '' && !/^https?:\/\/[^\s/]+/i.test(value.trim())) {
    return t('validation.urlInvalid');
  }
  return null;
}

/** The spec's messages after a save: all saved, nothing sent, some failed, or all failed. */
export function notifySaveReport(
  report: SaveReport,
  entries: readonly OptionEntry[],
  notify: (message: string, severity?: AlertColor) => void,
  t: TFunction,
): Record<string, string> {
  const failures: Record<string, string> = {};
  for (const failure of report.failed) {
    failures[failure.key] = describeApiError(failure.error, t, t('messages.saveFailed'));
  }
  if (report.outcome === 'saved') {
    notify(t('messages.saved'), 'success');
  } else if (report.outcome === 'partial') {
    notify(t('messages.partialFailure'), 'error');
  } else if (report.outcome === 'failed') {
    const first = report.failed[0];
    // One key: the server's own reason; several: the spec's retry text.
    notify(entries.length === 1 && first ? failures[first.key] : t('messages.saveFailedRetry'), 'error');
  } else {
    notify(t('messages.nothingChanged'), 'warning');
  }
  return failures;
}

/**
 * One settings card: its fields, edited as a draft over the stored options. Saving sends only the keys
 * that changed, toggles first, one call per key; a failure leaves that field's draft and error in place.
 */
export function OptionsPanel({ id, fields, options, warning, validate, prepare, extra }: OptionsPanelProps) {
  const { t } = useSettingsTranslation();
  const notify = useNotify();
  const save = useSaveOptions();
  const session = useSession();
  const [updateOption] = useUpdateOptionMutation();
  const clearing = useApiAction(t);
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [confirmOff, setConfirmOff] = useState<string | null>(null);
  const [confirmClear, setConfirmClear] = useState<string | null>(null);
  const titleId = useId();

  const stored = options.values;
  // JSON is shown indented; the diff compares JSON by meaning, so this is never a change by itself.
  const shown: Record<string, string> = { ...stored };
  for (const field of fields) {
    if (field.kind === 'json' && stored[field.key] !== undefined)
      shown[field.key] = formatJsonText(stored[field.key]);
  }
  const values = { ...shown, ...draft };
  // Secrets are never listed, so the list cannot mark them; every secret option is root-only (docs/decisions.md#root-only-options).
  const secretKeys = new Set(fields.filter((field) => field.kind === 'secret').map((field) => field.key));
  const readOnly = (key: string) =>
    options.rootOnly.has(key) || (secretKeys.has(key) && !isRoot(session.user));
  const setError = (key: string, message: string | null) =>
    setErrors((current) => {
      const next = { ...current };
      if (message === null) delete next[key];
      else next[key] = message;
      return next;
    });
  const set = (key: string, value: string) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setError(key, null);
  };
  const ctx: PanelContext = { values, stored, set, readOnly, errors, setError, t };
  const allReadOnly = fields.every((field) => readOnly(field.key));

  const submit = async () => {
    let entries = changedOptionEntries(stored, draft, fields);
    if (entries.length === 0) {
      notify(t('messages.nothingChanged'), 'warning');
      return;
    }
    const problems: Record<string, string> = {};
    for (const entry of entries) {
      const spec = fields.find((field) => field.key === entry.key);
      const problem = spec ? fieldProblem(spec, entry.value, ctx) : null;
      if (problem) problems[entry.key] = problem;
    }
    if (Object.keys(problems).length > 0) {
      setErrors((current) => ({ ...current, ...problems }));
      notify(Object.values(problems)[0] ?? t('messages.checkInput'), 'error');
      return;
    }
    const refusal = validate?.(entries, ctx);
    if (refusal) {
      notify(refusal, 'error');
      return;
    }
    if (prepare) entries = prepare(entries, ctx);
    setSaving(true);
    try {
      const report = await save(entries);
      setDraft((current) => {
        const next = { ...current };
        for (const key of report.saved) delete next[key];
        return next;
      });
      setErrors(notifySaveReport(report, entries, notify, t));
    } finally {
      setSaving(false);
    }
  };

  const clearSecret = async (key: string) => {
    const cleared = await clearing.run(() => updateOption({ key, value: '', clear: true }).unwrap(), {
      success: t('messages.saved'),
      fallback: t('messages.saveFailed'),
    });
    if (cleared) set(key, '');
  };

  const toggles = fields.filter((field) => field.kind === 'bool');
  const others = fields.filter((field) => field.kind !== 'bool');
  const description = t(`panels.${id}.description`, { defaultValue: '' });

  return (
    <Card component="section" aria-labelledby={titleId} variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Box>
            <Typography id={titleId} variant="h6" component="h2">
              {t(`panels.${id}.title`)}
            </Typography>
            {description && (
              <Typography variant="body2" color="text.secondary">
                {description}
              </Typography>
            )}
          </Box>
          {warning}
          {allReadOnly && <Alert severity="info">{t('messages.rootOnly')}</Alert>}
          {toggles.length > 0 && (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3 }}>
              {toggles.map((spec) => (
                <Box key={spec.key}>
                  <FormControlLabel
                    control={
                      <Switch
                        name={spec.key}
                        checked={values[spec.key] === 'true'}
                        disabled={readOnly(spec.key) || spec.disabledWhen?.(values)}
                        onChange={(event) => {
                          if (!event.target.checked && spec.confirmOff) {
                            setConfirmOff(spec.key);
                          } else {
                            set(spec.key, String(event.target.checked));
                          }
                        }}
                      />
                    }
                    label={t(`fields.${fieldKey(spec.key)}`)}
                  />
                  {errors[spec.key] && (
                    <Typography variant="caption" color="error" component="p">
                      {errors[spec.key]}
                    </Typography>
                  )}
                </Box>
              ))}
            </Box>
          )}
          {others.length > 0 && (
            <Box
              sx={{
                display: 'grid',
                gap: 2,
                gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
              }}
            >
              {others.map((spec) => (
                <Box
                  key={spec.key}
                  sx={
                    spec.wide || spec.kind === 'json' || spec.kind === 'textarea' || spec.render
                      ? { gridColumn: '1 / -1' }
                      : undefined
                  }
                >
                  {spec.render ? (
                    spec.render(ctx)
                  ) : (
                    <OptionField
                      spec={spec}
                      ctx={ctx}
                      onClear={readOnly(spec.key) ? undefined : () => setConfirmClear(spec.key)}
                    />
                  )}
                </Box>
              ))}
            </Box>
          )}
          {extra?.(ctx)}
        </Stack>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button variant="contained" onClick={() => void submit()} disabled={saving || allReadOnly}>
          {t('actions.save', { title: t(`panels.${id}.title`) })}
        </Button>
      </CardActions>
      <ConfirmDialog
        open={confirmOff !== null}
        title={t('actions.confirmTitle')}
        message={confirmOff ? t(`confirmOff.${fieldKey(confirmOff)}`) : ''}
        confirmLabel={t('actions.confirm')}
        cancelLabel={t('actions.cancel')}
        onCancel={() => setConfirmOff(null)}
        onConfirm={() => {
          if (confirmOff) set(confirmOff, 'false');
          setConfirmOff(null);
        }}
      />
      <ConfirmDialog
        open={confirmClear !== null}
        title={t('actions.confirmTitle')}
        message={
          confirmClear ? t('secret.clearConfirm', { name: t(`fields.${fieldKey(confirmClear)}`) }) : ''
        }
        confirmLabel={t('actions.confirm')}
        cancelLabel={t('actions.cancel')}
        onCancel={() => setConfirmClear(null)}
        onConfirm={() => {
          if (confirmClear) void clearSecret(confirmClear);
          setConfirmClear(null);
        }}
      />
    </Card>
  );
}

function OptionField({ spec, ctx, onClear }: { spec: FieldSpec; ctx: PanelContext; onClear?: () => void }) {
  const { t, values, set, readOnly, errors, setError } = ctx;
  const name = fieldKey(spec.key);
  const label = t(`fields.${name}`);
  const help = t(`help.${name}`, { defaultValue: '' });
  const error = errors[spec.key];
  const disabled = readOnly(spec.key) || spec.disabledWhen?.(values) === true;
  const value = values[spec.key] ?? '';

  if (spec.kind === 'select') {
    return (
      <TextField
        select
        fullWidth
        name={spec.key}
        label={label}
        value={value}
        disabled={disabled}
        onChange={(event) => set(spec.key, event.target.value)}
        error={Boolean(error)}
        helperText={error ?? (help || undefined)}
      >
        {(spec.choices ?? []).map((choice) => (
          <MenuItem key={choice} value={choice}>
            {t(`choices.${name}.${choice}`)}
          </MenuItem>
        ))}
      </TextField>
    );
  }

  if (spec.kind === 'secret') {
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          fullWidth
          type="password"
          autoComplete="new-password"
          name={spec.key}
          label={label}
          value={value}
          disabled={disabled}
          placeholder={t('secret.placeholder')}
          onChange={(event) => set(spec.key, event.target.value)}
          error={Boolean(error)}
          helperText={error ?? (help || t('secret.placeholder'))}
        />
        {onClear && (
          <Button size="small" color="warning" onClick={onClear} sx={{ mt: 1, whiteSpace: 'nowrap' }}>
            {t('secret.clear')}
          </Button>
        )}
      </Stack>
    );
  }

  const multiline = spec.kind === 'json' || spec.kind === 'textarea';
  return (
    <TextField
      fullWidth
      name={spec.key}
      label={label}
      value={value}
      disabled={disabled}
      multiline={multiline}
      minRows={multiline ? 4 : undefined}
      maxRows={multiline ? 16 : undefined}
      onChange={(event) => set(spec.key, event.target.value)}
      onBlur={() => {
        // Spec: every JSON textarea validates on blur.
        if (spec.kind === 'json' || spec.kind === 'int' || spec.kind === 'float') {
          const problem = fieldProblem(spec, value, ctx);
          setError(spec.key, problem);
        }
      }}
      error={Boolean(error)}
      helperText={error ?? (help || undefined)}
      slotProps={{
        htmlInput: {
          inputMode: spec.kind === 'int' ? 'numeric' : spec.kind === 'float' ? 'decimal' : undefined,
          style: spec.kind === 'json' ? { fontFamily: 'monospace', fontSize: 13 } : undefined,
        },
      }}
    />
  );
}
