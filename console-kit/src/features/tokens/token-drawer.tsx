import { useState, type FormEvent } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Chip,
  CircularProgress,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { FormDrawer, formChanged, useUnsavedEdits } from '../../components/form-drawer';
import { isAdmin } from '../../shell/shell-nav';
import { useSession } from '../../provider/use-session';
import { ContentLogSwitch } from '../../components/content-log-switch';
import { ExpiryPicker } from '../../components/expiry-picker';
import { BudgetEditor } from '../../components/budget-editor';
import { describeApiError } from '../../api/describe-api-error';
import { useQuotaFormat } from '../../format/use-quota-format';
import { useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { groupDescription } from '../../format/group-description';
import { groupRatioColor } from '../../format/group-ratio';
import { useSystemStatus } from '../../provider/use-system-status';
import {
  buildTokenPayload,
  COUNT_PRESETS,
  defaultGroupOf,
  emptyTokenForm,
  EXPIRY_PRESETS,
  expiryFromPreset,
  groupChoices,
  QUOTA_PRESETS,
  tokenFormOf,
  type TokenForm,
} from './token-rules';
import {
  useCreateTokenMutation,
  useGetTokenQuery,
  useGetUserGroupsQuery,
  useGetUserModelsQuery,
  useUpdateTokenMutation,
  type Token,
} from '../../lib/tokens-api';
import { TOKENS_NAMESPACE, tokensLocales } from './tokens-locales';

const DRAWER_WIDTH = 600;
/** The per-token limits: form key, wire name, label and optional help text (i18n keys). */
const LIMIT_FIELDS = [
  ['rpmLimit', 'rpm_limit', 'drawer.rpmLimit', null],
  ['tpmLimit', 'tpm_limit', 'drawer.tpmLimit', 'drawer.tpmLimitHelp'],
  ['concurrencyLimit', 'concurrency_limit', 'drawer.concurrencyLimit', null],
] as const;

export interface TokenDrawerProps {
  /** null: closed; 'new': create; a number: edit that token. */
  target: number | 'new' | null;
  onClose: () => void;
}

/** Create/edit drawer of a token (docs/decisions.md#expiry-format). */
export function TokenDrawer({ target, onClose }: TokenDrawerProps) {
  return (
    <FormDrawer open={target !== null} onClose={onClose} width={DRAWER_WIDTH}>
      {target === 'new' && <TokenFormLoader onClose={onClose} />}
      {typeof target === 'number' && <TokenFormLoader id={target} onClose={onClose} />}
    </FormDrawer>
  );
}

function TokenFormLoader({ id, onClose }: { id?: number; onClose: () => void }) {
  const { t } = useFeatureTranslation(TOKENS_NAMESPACE, tokensLocales);
  const token = useGetTokenQuery(id ?? 0, { skip: id === undefined, refetchOnMountOrArgChange: true });
  const groups = useGetUserGroupsQuery();
  const { status } = useSystemStatus();
  const autoFirst = status?.default_use_auto_group === true;
  if (id !== undefined && token.isError) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="error">{describeApiError(token.error, t)}</Alert>
      </Box>
    );
  }
  if ((id !== undefined && !token.data) || groups.isLoading) {
    return (
      <Box sx={{ p: 3, display: 'flex', justifyContent: 'center' }}>
        <CircularProgress aria-label="loading" />
      </Box>
    );
  }
  const choices = groupChoices(groups.data, autoFirst);
  const initial = token.data ? tokenFormOf(token.data) : emptyTokenForm(defaultGroupOf(choices, autoFirst));
  return (
    <TokenFormView
      token={id !== undefined ? token.data : undefined}
      initial={initial}
      choices={choices}
      groupsMissing={groups.isError || choices.length === 0}
      onClose={onClose}
    />
  );
}

interface TokenFormViewProps {
  token?: Token;
  initial: TokenForm;
  choices: ReturnType<typeof groupChoices>;
  groupsMissing: boolean;
  onClose: () => void;
}

function TokenFormView({ token, initial, choices, groupsMissing, onClose }: TokenFormViewProps) {
  const admin = isAdmin(useSession().user);
  const { t } = useFeatureTranslation(TOKENS_NAMESPACE, tokensLocales);
  const notify = useNotify();
  const { formatQuota } = useQuotaFormat();
  const models = useGetUserModelsQuery();
  const [createToken, creating] = useCreateTokenMutation();
  const [updateToken, updating] = useUpdateTokenMutation();
  const [start] = useState<TokenForm>(initial);
  const [form, setForm] = useState<TokenForm>(start);
  const [error, setError] = useState<string | null>(null);
  useUnsavedEdits(formChanged(start, form));
  const isNew = token === undefined;
  const set = <K extends keyof TokenForm>(key: K, value: TokenForm[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const quotaNumber = Number(form.remainQuota);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const built = buildTokenPayload(form, isNew);
    if (!built.ok) {
      setError(t(`drawer.errors.${built.error}`));
      return;
    }
    setError(null);
    try {
      if (isNew) {
        await createToken({ ...built.fields, count: built.count }).unwrap();
        notify(t('drawer.created'), 'success');
      } else {
        await updateToken({ id: token.id, ...built.fields }).unwrap();
        notify(t('drawer.updated'), 'success');
      }
      onClose();
    } catch (failure) {
      setError(describeApiError(failure, t));
    }
  };

  const groupOptions = [
    { value: '', desc: t('drawer.groupUser'), ratio: null as number | string | null },
    ...choices.filter((choice) => choice.value !== ''),
  ];

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {isNew ? t('drawer.createTitle') : t('drawer.editTitle')}
        </Typography>
        <TextField
          label={t('drawer.name')}
          placeholder={t('drawer.namePlaceholder')}
          name="name"
          autoComplete="off"
          value={form.name}
          onChange={(event) => set('name', event.target.value)}
          fullWidth
        />
        {groupsMissing ? (
          <Alert severity="info">{t('drawer.noGroups')}</Alert>
        ) : (
          <TextField
            select
            label={t('drawer.group')}
            name="group"
            value={form.group}
            onChange={(event) => set('group', event.target.value)}
            // The default choice has the empty value: show its label instead of an empty box.
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            fullWidth
          >
            {groupOptions.map((choice) => (
              <MenuItem key={choice.value || '-'} value={choice.value}>
                {choice.value === 'auto'
                  ? t('drawer.autoGroup')
                  : choice.value === ''
                    ? choice.desc
                    : `${choice.value}${choice.desc && choice.desc !== choice.value ? ` · ${groupDescription(choice.value, choice.desc, t)}` : ''}`}
                {choice.value !== 'auto' &&
                  choice.value !== '' &&
                  choice.ratio !== null &&
                  Number.isFinite(Number(choice.ratio)) && (
                    <Chip
                      size="small"
                      variant="outlined"
                      color={groupRatioColor(Number(choice.ratio))}
                      label={`×${choice.ratio}`}
                      sx={{ ml: 1 }}
                    />
                  )}
              </MenuItem>
            ))}
          </TextField>
        )}
        <ExpiryPicker
          label={t('drawer.expiry')}
          helperText={t('drawer.expiryHelp')}
          name="expired_time"
          value={form.expiry}
          onChange={(expiry) => set('expiry', expiry)}
          presets={EXPIRY_PRESETS.map((preset) => ({
            id: preset.id,
            label: t(`drawer.presets.${preset.id}`),
            text: () => expiryFromPreset(preset.id),
          }))}
        />
        <Alert severity="info">{t('drawer.unlimitedNote')}</Alert>
        <TextField
          label={t('drawer.quota')}
          name="remain_quota"
          inputMode="numeric"
          value={form.remainQuota}
          onChange={(event) => set('remainQuota', event.target.value)}
          disabled={form.unlimited}
          helperText={
            Number.isFinite(quotaNumber) && form.remainQuota.trim() !== ''
              ? t('drawer.quotaHelp', { value: formatQuota(quotaNumber) })
              : ' '
          }
          fullWidth
        />
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          {QUOTA_PRESETS.map((preset) => (
            <Chip
              key={preset}
              label={formatQuota(preset)}
              onClick={() => set('remainQuota', String(preset))}
              disabled={form.unlimited}
              variant="outlined"
              clickable
            />
          ))}
        </Stack>
        <FormControlLabel
          control={
            <Switch checked={form.unlimited} onChange={(event) => set('unlimited', event.target.checked)} />
          }
          label={t('drawer.unlimited')}
        />
        {isNew && (
          <>
            <TextField
              label={t('drawer.count')}
              name="count"
              inputMode="numeric"
              value={form.count}
              onChange={(event) => set('count', event.target.value)}
              helperText={t('drawer.countHelp')}
              fullWidth
            />
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
              {COUNT_PRESETS.map((preset) => (
                <Chip
                  key={preset}
                  label={preset}
                  onClick={() => set('count', String(preset))}
                  variant="outlined"
                  clickable
                />
              ))}
            </Stack>
          </>
        )}
        <FormControlLabel
          control={
            <Switch
              checked={form.modelLimitsEnabled}
              onChange={(event) => set('modelLimitsEnabled', event.target.checked)}
            />
          }
          label={t('drawer.modelLimitsEnabled')}
        />
        <Autocomplete
          multiple
          options={models.data ?? []}
          value={form.modelLimits}
          onChange={(_event, value) => set('modelLimits', value)}
          disabled={!form.modelLimitsEnabled}
          filterSelectedOptions
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('drawer.modelLimits')}
              placeholder={t('drawer.modelLimitsPlaceholder')}
            />
          )}
        />
        <TextField
          label={t('drawer.allowIps')}
          name="allow_ips"
          value={form.allowIps}
          onChange={(event) => set('allowIps', event.target.value)}
          helperText={t('drawer.allowIpsHelp')}
          multiline
          minRows={2}
          fullWidth
        />
        <Box>
          <Typography variant="subtitle2">{t('drawer.limits')}</Typography>
          <Typography variant="caption" color="text.secondary">
            {t('drawer.limitsHelp')}
          </Typography>
        </Box>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {LIMIT_FIELDS.map(([key, name, label, help]) => (
            <TextField
              key={name}
              label={t(label)}
              name={name}
              type="number"
              value={form[key]}
              onChange={(event) => set(key, event.target.value)}
              helperText={help ? t(help) : undefined}
              slotProps={{ htmlInput: { min: 0, step: 1 } }}
              fullWidth
            />
          ))}
        </Stack>
        <BudgetEditor value={form.budget} onChange={(budget) => set('budget', budget)} />
        {token && admin && <ContentLogSwitch scope="token" id={token.id} />}
        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('drawer.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={creating.isLoading || updating.isLoading}>
            {t('drawer.submit')}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
