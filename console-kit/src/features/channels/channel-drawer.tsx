import { useState, type FormEvent } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Checkbox,
  Chip,
  CircularProgress,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { DRAWER_WIDTH, FormDrawer, formChanged, useUnsavedEdits } from '../../components/form-drawer';
import { describeApiError } from '../../api/describe-api-error';
import { useApiAction } from '../../api/use-api-action';
import { useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { ConfirmDialog } from '../../components/confirm-dialog';
import {
  applyTypeDefaults,
  checkForm,
  emptyForm,
  formFromChannel,
  payloadFromForm,
  JSON_EDITORS,
  type ChannelForm,
  type JsonEditorField,
} from './channel-form';
import {
  addCustomModels,
  CHANNEL_TYPES,
  channelTypeName,
  checkJsonEditor,
  endsWithV1,
  formatJsonText,
  typeRules,
} from './channel-rules';
import { CHANNELS_NAMESPACE, channelsLocales } from './channels-locales';
import { FetchedModelsDialog } from './fetched-models-dialog';
import { relatedModels } from './related-models';
import { ChannelContentLogSwitch } from '../../components/content-log-switch';
import {
  useBuiltInModelsQuery,
  useTypeModelsQuery,
  useChannelGroupsQuery,
  useCreateChannelMutation,
  useFetchModelsByIdMutation,
  useFetchModelsByKeyMutation,
  useGetChannelQuery,
  useUpdateChannelMutation,
  type Channel,
} from './channels-api';
import { FirstByteTimeoutField } from './first-byte-timeout-field';

export { DRAWER_WIDTH };

export interface ChannelDrawerProps {
  open: boolean;
  /** The channel being edited; null creates a new one. */
  channelId: number | null;
  onClose: () => void;
}

export function ChannelDrawer({ open, channelId, onClose }: ChannelDrawerProps) {
  return (
    <FormDrawer open={open} onClose={onClose} width={DRAWER_WIDTH}>
      {open &&
        (channelId === null ? (
          <ChannelFormView onClose={onClose} />
        ) : (
          <EditLoader id={channelId} onClose={onClose} />
        ))}
    </FormDrawer>
  );
}

function EditLoader({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useFeatureTranslation(CHANNELS_NAMESPACE, channelsLocales);
  const channel = useGetChannelQuery(id, { refetchOnMountOrArgChange: true });
  if (channel.isFetching && !channel.data) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress aria-label={t('form.editTitle')} />
      </Box>
    );
  }
  if (channel.isError || !channel.data) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="error">{describeApiError(channel.error, t, t('form.loadFailed'))}</Alert>
        <Button sx={{ mt: 2 }} onClick={onClose}>
          {t('form.cancel')}
        </Button>
      </Box>
    );
  }
  return <ChannelFormView key={channel.data.id} channel={channel.data} onClose={onClose} />;
}

const JSON_LABELS: Record<JsonEditorField, string> = {
  model_mapping: 'modelMapping',
  status_code_mapping: 'statusCodeMapping',
  param_override: 'paramOverride',
  setting: 'setting',
};

function ChannelFormView({ channel, onClose }: { channel?: Channel; onClose: () => void }) {
  const { t } = useFeatureTranslation(CHANNELS_NAMESPACE, channelsLocales);
  const notify = useNotify();
  const isEdit = channel !== undefined;
  const [initial] = useState<ChannelForm>(() => (channel ? formFromChannel(channel) : emptyForm()));
  const [form, setForm] = useState<ChannelForm>(initial);
  useUnsavedEdits(formChanged(initial, form));
  const [error, setError] = useState<string | null>(null);
  const [jsonErrors, setJsonErrors] = useState<Partial<Record<JsonEditorField, string>>>({});
  const [firstByteError, setFirstByteError] = useState<string | null>(null);
  const [customInput, setCustomInput] = useState('');
  const [confirmV1, setConfirmV1] = useState(false);
  const [fetched, setFetched] = useState<{ current: string[]; models: string[] } | null>(null);
  const groups = useChannelGroupsQuery();
  const builtIn = useBuiltInModelsQuery();
  const typeModels = useTypeModelsQuery();
  const [create, creating] = useCreateChannelMutation();
  const [update, updating] = useUpdateChannelMutation();
  const [fetchById] = useFetchModelsByIdMutation();
  const [fetchByKey] = useFetchModelsByKeyMutation();
  const fetching = useApiAction(t);
  const rules = typeRules(form.type);
  const busy = creating.isLoading || updating.isLoading;
  const set = <K extends keyof ChannelForm>(field: K, value: ChannelForm[K]) =>
    setForm((current) => ({ ...current, [field]: value }));

  const modelOptions = [...new Set([...(builtIn.data ?? []).map((model) => model.id), ...form.models])];
  const groupOptions = [...new Set([...(groups.data ?? []), ...form.groups])];

  const validateJson = (field: JsonEditorField, kind: 'object' | 'mapping' | 'statusCodes') => {
    const problem = checkJsonEditor(form[field], kind);
    setJsonErrors((current) => ({ ...current, [field]: problem ? t(`form.json.${problem}`) : undefined }));
  };

  const fetchModels = async () => {
    // An edited channel with no key typed in fetches with its stored key.
    const storedKeyChannel = isEdit && form.key.trim() === '' ? channel.id : null;
    if (storedKeyChannel === null && form.key.trim() === '') {
      notify(t('form.fillKey'), 'error');
      return;
    }
    await fetching.run(
      async () => {
        const models =
          storedKeyChannel !== null
            ? await fetchById(storedKeyChannel).unwrap()
            : await fetchByKey({
                type: form.type,
                base_url: form.base_url.trim(),
                key: form.key.trim().split('\n')[0],
              }).unwrap();
        // Picked in a dialog (merged by default), never put in place of the channel's list unseen.
        setFetched({ current: form.models, models: [...new Set(models)] });
      },
      { fallback: t('form.fetchFailed') },
    );
  };

  const fillRelated = () => {
    if (typeModels.isError) {
      notify(describeApiError(typeModels.error, t, t('form.relatedFailed')), 'error');
      return;
    }
    const related = relatedModels(typeModels.data, form.type);
    if (related.length === 0) {
      notify(t('form.noRelated'), 'warning');
      return;
    }
    set('models', related);
  };

  const addCustom = () => {
    const { models, duplicates } = addCustomModels(form.models, customInput);
    const added = models.length - form.models.length;
    set('models', models);
    setCustomInput('');
    if (duplicates.length > 0) notify(t('form.modelsExist', { models: duplicates.join(', ') }), 'warning');
    else if (added > 0) notify(t('form.modelsAdded', { count: added }), 'success');
  };

  const save = async () => {
    try {
      if (isEdit) {
        await update({ ...payloadFromForm(form, channel.id), id: channel.id }).unwrap();
        notify(t('form.updated'), 'success');
      } else {
        await create(payloadFromForm(form)).unwrap();
        notify(t('form.created'), 'success');
      }
      onClose();
    } catch (failure) {
      setError(describeApiError(failure, t));
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (firstByteError) {
      setError(firstByteError);
      return;
    }
    const problems = checkForm(form, isEdit);
    const nextJsonErrors: Partial<Record<JsonEditorField, string>> = {};
    for (const [field, problem] of Object.entries(problems.json)) {
      nextJsonErrors[field as JsonEditorField] = t(`form.json.${problem}`);
    }
    setJsonErrors(nextJsonErrors);
    if (problems.message) {
      setError(
        problems.message === 'form.extraRequired'
          ? t('form.extraRequired', { label: t(`form.extra.${problems.missingExtra}.label`) })
          : t(problems.message),
      );
      return;
    }
    setError(null);
    if (endsWithV1(form.base_url)) {
      setConfirmV1(true);
      return;
    }
    void save();
  };

  const textField = (field: keyof ChannelForm, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      size="small"
      fullWidth
      value={form[field]}
      onChange={(event) => set(field, event.target.value as never)}
      {...extra}
    />
  );

  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit}
      sx={{ p: { xs: 2, sm: 3 } }}
      aria-label={t(isEdit ? 'form.editTitle' : 'form.addTitle')}
    >
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {t(isEdit ? 'form.editTitle' : 'form.addTitle')}
        </Typography>
        {error && (
          <Alert severity="error" data-testid="channel-form-error">
            {error}
          </Alert>
        )}
        <TextField
          select
          label={t('form.type')}
          size="small"
          value={form.type}
          onChange={(event) => setForm((current) => applyTypeDefaults(current, Number(event.target.value)))}
          slotProps={{ select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } } }}
        >
          {CHANNEL_TYPES.map((entry) => (
            <MenuItem key={entry.id} value={entry.id}>
              {channelTypeName(entry.id, t)}
            </MenuItem>
          ))}
        </TextField>
        {rules.notices.map((notice) => (
          <Alert key={notice} severity="info">
            {t(`form.notice.${notice}`)}
          </Alert>
        ))}
        {textField('name', t('form.name'), { required: true, placeholder: t('form.namePlaceholder') })}
        {rules.extra.map((extra) =>
          extra.options ? (
            <Autocomplete
              key={extra.key}
              freeSolo
              options={[...extra.options]}
              value={form[extra.field]}
              onInputChange={(_event, value) => set(extra.field, value)}
              renderInput={(params) => (
                <TextField
                  {...params}
                  size="small"
                  required={extra.required}
                  label={t(`form.extra.${extra.key}.label`)}
                  placeholder={t(`form.extra.${extra.key}.placeholder`)}
                />
              )}
            />
          ) : (
            <TextField
              key={extra.key}
              size="small"
              fullWidth
              required={extra.required}
              multiline={extra.multiline}
              minRows={extra.multiline ? 2 : undefined}
              label={t(`form.extra.${extra.key}.label`)}
              placeholder={t(`form.extra.${extra.key}.placeholder`)}
              value={form[extra.field]}
              onChange={(event) => set(extra.field, event.target.value)}
            />
          ),
        )}
        {rules.genericBaseUrl &&
          textField('base_url', t('form.baseUrl'), { placeholder: t('form.baseUrlPlaceholder') })}
        {endsWithV1(form.base_url) && <Alert severity="warning">{t('form.v1Inline')}</Alert>}
        <TextField
          label={t('form.key')}
          size="small"
          fullWidth
          multiline
          minRows={form.batch || form.type === 41 ? 3 : 1}
          required={!isEdit}
          type="text"
          autoComplete="off"
          value={form.key}
          onChange={(event) => set('key', event.target.value)}
          placeholder={t(`form.keyHint.${rules.keyHint}`)}
          helperText={isEdit ? t('form.keyKeep') : undefined}
        />
        {!isEdit && (
          <FormControlLabel
            control={
              <Checkbox checked={form.batch} onChange={(event) => set('batch', event.target.checked)} />
            }
            label={t('form.batch')}
          />
        )}
        <Autocomplete
          multiple
          freeSolo
          options={groupOptions}
          value={form.groups}
          onChange={(_event, value) => set('groups', value)}
          renderInput={(params) => (
            <TextField
              {...params}
              size="small"
              label={t('form.groups')}
              placeholder={t('form.groupsPlaceholder')}
            />
          )}
        />
        <Autocomplete
          multiple
          freeSolo
          disableCloseOnSelect
          options={modelOptions}
          value={form.models}
          onChange={(_event, value) => set('models', [...new Set(value)])}
          renderValue={(value, getItemProps) =>
            value.map((option, index) => {
              const { key, ...itemProps } = getItemProps({ index });
              return <Chip key={key} size="small" label={option} {...itemProps} />;
            })
          }
          renderInput={(params) => (
            <TextField
              {...params}
              size="small"
              label={t('form.models')}
              placeholder={t('form.modelsPlaceholder')}
            />
          )}
        />
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button size="small" variant="outlined" onClick={() => void fetchModels()} disabled={fetching.busy}>
            {t('form.fetchModels')}
          </Button>
          <Button
            size="small"
            variant="outlined"
            onClick={fillRelated}
            disabled={typeModels.isLoading}
            data-testid="fill-related-models"
          >
            {t('form.fillRelated')}
          </Button>
          <Button size="small" variant="outlined" onClick={() => set('models', modelOptions)}>
            {t('form.fillAll')}
          </Button>
          <Button size="small" color="warning" variant="outlined" onClick={() => set('models', [])}>
            {t('form.clearModels')}
          </Button>
        </Stack>
        <Stack direction="row" spacing={1}>
          <TextField
            size="small"
            fullWidth
            label={t('form.customModels')}
            placeholder={t('form.customModelsPlaceholder')}
            value={customInput}
            onChange={(event) => setCustomInput(event.target.value)}
          />
          <Button variant="outlined" onClick={addCustom}>
            {t('form.addCustom')}
          </Button>
        </Stack>
        <ChannelContentLogSwitch setting={form.setting} onChange={(setting) => set('setting', setting)} />
        {textField('test_model', t('form.testModel'), { placeholder: t('form.testModelPlaceholder') })}
        <FirstByteTimeoutField
          setting={form.setting}
          onChange={(setting) => set('setting', setting)}
          onProblem={setFirstByteError}
        />
        {JSON_EDITORS.map(({ field, kind }) => (
          <Box key={field}>
            <TextField
              size="small"
              fullWidth
              multiline
              minRows={2}
              label={t(`form.${JSON_LABELS[field]}`)}
              placeholder={t(`form.${JSON_LABELS[field]}Placeholder`)}
              value={form[field]}
              onChange={(event) => set(field, event.target.value)}
              onBlur={() => validateJson(field, kind)}
              error={Boolean(jsonErrors[field])}
              helperText={jsonErrors[field]}
              slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
            />
            <Button size="small" onClick={() => set(field, formatJsonText(form[field]))}>
              {t('form.format')}
            </Button>
          </Box>
        ))}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {textField('priority', t('form.priority'), { type: 'number' })}
          <TextField
            label={t('form.weight')}
            size="small"
            fullWidth
            type="number"
            value={form.weight}
            onChange={(event) => set('weight', event.target.value)}
            // docs/decisions.md#channel-weight: a negative weight is clamped to 0 in the form.
            onBlur={() => Number(form.weight) < 0 && set('weight', '0')}
          />
          {textField('max_input_tokens', t('form.maxInputTokens'), {
            type: 'number',
            helperText: t('form.maxInputTokensHint'),
          })}
        </Stack>
        <Box>
          <Typography variant="subtitle2">{t('form.limits')}</Typography>
          <Typography variant="caption" color="text.secondary">
            {t('form.limitsHint')}
          </Typography>
        </Box>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {textField('rpm_limit', t('form.rpmLimit'), {
            type: 'number',
            slotProps: { htmlInput: { min: 0, step: 1 } },
          })}
          {textField('tpm_limit', t('form.tpmLimit'), {
            type: 'number',
            helperText: t('form.tpmLimitHint'),
            slotProps: { htmlInput: { min: 0, step: 1 } },
          })}
          {textField('concurrency_limit', t('form.concurrencyLimit'), {
            type: 'number',
            slotProps: { htmlInput: { min: 0, step: 1 } },
          })}
        </Stack>
        {textField('tag', t('form.tag'), { placeholder: t('form.tagPlaceholder') })}
        <FormControlLabel
          control={
            <Switch checked={form.auto_ban} onChange={(event) => set('auto_ban', event.target.checked)} />
          }
          label={t('form.autoBan')}
        />
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('form.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('form.submit')}
          </Button>
        </Stack>
      </Stack>
      <ConfirmDialog
        open={confirmV1}
        title={t('actions.confirmTitle')}
        message={t('form.v1Warning')}
        confirmLabel={t('actions.confirm')}
        cancelLabel={t('actions.cancel')}
        onCancel={() => setConfirmV1(false)}
        onConfirm={() => {
          setConfirmV1(false);
          void save();
        }}
      />
      {fetched && (
        <FetchedModelsDialog
          current={fetched.current}
          fetched={fetched.models}
          onClose={() => setFetched(null)}
          onApply={(models) => {
            set('models', models);
            setFetched(null);
            notify(t('form.fetched', { count: models.length }), 'success');
          }}
        />
      )}
    </Box>
  );
}
