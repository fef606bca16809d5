import { useId, useState, type FormEvent } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Checkbox,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Drawer,
  FormControlLabel,
  List,
  ListItemButton,
  ListItemText,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { describeApiError } from '../../api/describe-api-error';
import { useApiAction } from '../../api/use-api-action';
import { DRAWER_WIDTH } from '../../components/form-drawer';
import { useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import {
  checkJsonEditor,
  COLUMN_KEYS,
  parseColumns,
  formatTimestamp,
  parsePriority,
  parseWeight,
  splitList,
  type ColumnKey,
} from './channel-rules';
import { CHANNELS_NAMESPACE, channelsLocales } from './channels-locales';
import {
  useBatchTagMutation,
  useChannelGroupsQuery,
  useCopyChannelMutation,
  useEditTagMutation,
  useTestChannelMutation,
  useTestUpstreamQuery,
  type Channel,
  type ChannelTagRow,
  type TagEditPayload,
} from './channels-api';

function useT() {
  return useFeatureTranslation(CHANNELS_NAMESPACE, channelsLocales).t;
}

/** The model picker of the test action: the channel's models, searchable; the answer shows seconds. */
export function TestModelDialog({ channel, onClose }: { channel: Channel | null; onClose: () => void }) {
  const t = useT();
  const id = useId();
  const [filter, setFilter] = useState('');
  const [results, setResults] = useState<Record<string, { ok: boolean; text: string }>>({});
  const [testing, setTesting] = useState<string | null>(null);
  const [test] = useTestChannelMutation();
  const models = splitList(channel?.models).filter((model) =>
    model.toLowerCase().includes(filter.trim().toLowerCase()),
  );

  const run = async (model: string) => {
    if (!channel) return;
    setTesting(model);
    try {
      const answer = await test({ id: channel.id, model }).unwrap();
      setResults((current) => ({
        ...current,
        [model]: answer.success
          ? { ok: true, text: t('testDialog.time', { time: answer.time.toFixed(2) }) }
          : { ok: false, text: answer.message },
      }));
    } catch (failure) {
      setResults((current) => ({ ...current, [model]: { ok: false, text: describeApiError(failure, t) } }));
    } finally {
      setTesting(null);
    }
  };

  return (
    <Dialog open={channel !== null} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>{t('testDialog.title', { name: channel?.name ?? '' })}</DialogTitle>
      <DialogContent>
        <TextField
          size="small"
          fullWidth
          label={t('testDialog.search')}
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          sx={{ mt: 1 }}
        />
        <List dense>
          {models.map((model) => (
            <ListItemButton
              key={model}
              onClick={() => void run(model)}
              disabled={testing !== null}
              data-testid={`test-model-${model}`}
            >
              <ListItemText
                primary={
                  <>
                    {model}
                    {model === channel?.test_model && (
                      <Chip size="small" sx={{ ml: 1 }} label={t('testDialog.default')} />
                    )}
                  </>
                }
                secondary={
                  results[model] ? (
                    <Typography
                      component="span"
                      variant="caption"
                      color={results[model].ok ? 'success.main' : 'error'}
                    >
                      {results[model].text}
                    </Typography>
                  ) : undefined
                }
              />
              {testing === model ? (
                <CircularProgress size={18} />
              ) : (
                <Button size="small" component="span">
                  {t('testDialog.run')}
                </Button>
              )}
            </ListItemButton>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('testDialog.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

export function CopyChannelDialog({ channel, onClose }: { channel: Channel | null; onClose: () => void }) {
  const t = useT();
  const action = useApiAction(t);
  const id = useId();
  const [suffix, setSuffix] = useState(() => t('copyDialog.defaultSuffix'));
  const [resetBalance, setResetBalance] = useState(true);
  const [copy] = useCopyChannelMutation();
  const submit = async () => {
    if (!channel) return;
    const copied = await action.run(() => copy({ id: channel.id, suffix, resetBalance }).unwrap(), {
      success: t('actions.copied'),
      fallback: t('actions.copyFailed'),
    });
    if (copied) onClose();
  };
  return (
    <Dialog open={channel !== null} onClose={onClose} aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>{t('copyDialog.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={1} sx={{ pt: 1 }}>
          <TextField
            size="small"
            label={t('copyDialog.suffix')}
            value={suffix}
            onChange={(event) => setSuffix(event.target.value)}
          />
          <FormControlLabel
            control={
              <Checkbox checked={resetBalance} onChange={(event) => setResetBalance(event.target.checked)} />
            }
            label={t('copyDialog.resetBalance')}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.cancel')}</Button>
        <Button variant="contained" disabled={action.busy} onClick={() => void submit()}>
          {t('copyDialog.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function BatchTagDialog({
  ids,
  open,
  onClose,
  onDone,
}: {
  ids: number[];
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const t = useT();
  const notify = useNotify();
  const id = useId();
  const [tag, setTag] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [batchTag, { isLoading }] = useBatchTagMutation();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (ids.length === 0) {
      setError(t('actions.selectForTag'));
      return;
    }
    if (tag.trim() === '') {
      setError(t('batchTag.required'));
      return;
    }
    try {
      const count = await batchTag({ ids, tag: tag.trim() }).unwrap();
      notify(t('batchTag.done', { count }), 'success');
      setTag('');
      setError(null);
      onDone();
    } catch (failure) {
      setError(describeApiError(failure, t));
    }
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={`${id}-title`}>
      <Box component="form" onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={`${id}-title`}>{t('batchTag.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2">{t('batchTag.count', { count: ids.length })}</Typography>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField
              size="small"
              label={t('batchTag.tag')}
              value={tag}
              onChange={(event) => setTag(event.target.value)}
              autoFocus
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isLoading}>
            {t('batchTag.submit')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

export interface TagEditForm {
  newTag: string;
  dissolve: boolean;
  models: string;
  groups: string[];
  modelMapping: string;
  priority: string;
  weight: string;
}

/** The tag edit body: only what was filled in; null when nothing would change; a string on bad input. */
export function tagEditPayload(
  tag: string,
  form: TagEditForm,
): TagEditPayload | null | 'priority' | 'weight' | 'json' {
  const payload: TagEditPayload = { tag };
  if (form.dissolve) payload.new_tag = '';
  else if (form.newTag.trim() !== '' && form.newTag.trim() !== tag) payload.new_tag = form.newTag.trim();
  if (form.models.trim() !== '') payload.models = splitList(form.models).join(',');
  if (form.groups.length > 0) payload.groups = form.groups;
  if (form.modelMapping.trim() !== '') {
    if (checkJsonEditor(form.modelMapping, 'mapping')) return 'json';
    payload.model_mapping = form.modelMapping.trim();
  }
  if (form.priority.trim() !== '') {
    const priority = parsePriority(form.priority);
    if (priority === null) return 'priority';
    payload.priority = priority;
  }
  if (form.weight.trim() !== '') {
    const weight = parseWeight(form.weight);
    if (weight === null) return 'weight';
    payload.weight = weight;
  }
  return Object.keys(payload).length === 1 ? null : payload;
}

export function TagEditDrawer({ row, onClose }: { row: ChannelTagRow | null; onClose: () => void }) {
  return (
    <Drawer
      anchor="right"
      open={row !== null}
      onClose={onClose}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: DRAWER_WIDTH } } } }}
    >
      {row && <TagEditFormView key={row.tag} row={row} onClose={onClose} />}
    </Drawer>
  );
}

function TagEditFormView({ row, onClose }: { row: ChannelTagRow; onClose: () => void }) {
  const t = useT();
  const notify = useNotify();
  const groups = useChannelGroupsQuery();
  const [editTag, { isLoading }] = useEditTagMutation();
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState<TagEditForm>({
    newTag: row.tag,
    dissolve: false,
    models: '',
    groups: [],
    modelMapping: '',
    priority: row.priority === null ? '' : String(row.priority),
    weight: row.weight === null ? '' : String(row.weight),
  });
  const set = <K extends keyof TagEditForm>(field: K, value: TagEditForm[K]) =>
    setForm((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Unchanged priority/weight are left out, so that "no changes" means what it says.
    const effective = {
      ...form,
      priority: row.priority !== null && form.priority.trim() === String(row.priority) ? '' : form.priority,
      weight: row.weight !== null && form.weight.trim() === String(row.weight) ? '' : form.weight,
    };
    const payload = tagEditPayload(row.tag, effective);
    if (payload === null) {
      setError(t('tagEdit.noChanges'));
      return;
    }
    if (payload === 'priority') return setError(t('actions.priorityInvalid'));
    if (payload === 'weight') return setError(t('actions.weightInvalid'));
    if (payload === 'json') return setError(t('form.json.invalid'));
    try {
      const count = await editTag(payload).unwrap();
      notify(t('tagEdit.done', { count }), 'success');
      onClose();
    } catch (failure) {
      setError(describeApiError(failure, t));
    }
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => void submit(event)}
      sx={{ p: { xs: 2, sm: 3 } }}
      aria-label={t('tagEdit.title', { tag: row.tag })}
    >
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {t('tagEdit.title', { tag: row.tag })}
        </Typography>
        <Alert severity="info">{t('tagEdit.hint')}</Alert>
        {error && <Alert severity="error">{error}</Alert>}
        <TextField
          size="small"
          label={t('tagEdit.newTag')}
          value={form.newTag}
          disabled={form.dissolve}
          onChange={(event) => set('newTag', event.target.value)}
        />
        <FormControlLabel
          control={
            <Checkbox checked={form.dissolve} onChange={(event) => set('dissolve', event.target.checked)} />
          }
          label={t('tagEdit.dissolve')}
        />
        <TextField
          size="small"
          multiline
          label={t('tagEdit.models')}
          placeholder={t('tagEdit.modelsPlaceholder')}
          helperText={row.models}
          value={form.models}
          onChange={(event) => set('models', event.target.value)}
        />
        <Autocomplete
          multiple
          freeSolo
          options={groups.data ?? []}
          value={form.groups}
          onChange={(_event, value) => set('groups', value)}
          renderInput={(params) => (
            <TextField {...params} size="small" label={t('tagEdit.groups')} helperText={row.group} />
          )}
        />
        <TextField
          size="small"
          multiline
          minRows={2}
          label={t('tagEdit.modelMapping')}
          value={form.modelMapping}
          onChange={(event) => set('modelMapping', event.target.value)}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        />
        <Stack direction="row" spacing={2}>
          <TextField
            size="small"
            type="number"
            label={t('tagEdit.priority')}
            value={form.priority}
            onChange={(event) => set('priority', event.target.value)}
          />
          <TextField
            size="small"
            type="number"
            label={t('tagEdit.weight')}
            value={form.weight}
            onChange={(event) => set('weight', event.target.value)}
            onBlur={() => Number(form.weight) < 0 && set('weight', '0')}
          />
        </Stack>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('form.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isLoading}>
            {t('tagEdit.submit')}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}

export function ColumnSettingsDialog({
  open,
  columns,
  onChange,
  onClose,
}: {
  open: boolean;
  columns: Record<ColumnKey, boolean>;
  onChange: (columns: Record<ColumnKey, boolean>) => void;
  onClose: () => void;
}) {
  const t = useT();
  const id = useId();
  const choosable = COLUMN_KEYS.filter((key) => key !== 'actions');
  const all = choosable.every((key) => columns[key]);
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>{t('columns.title')}</DialogTitle>
      <DialogContent>
        <FormControlLabel
          control={
            <Checkbox
              checked={all}
              indeterminate={!all && choosable.some((key) => columns[key])}
              onChange={(event) =>
                onChange({
                  ...columns,
                  ...Object.fromEntries(choosable.map((key) => [key, event.target.checked])),
                })
              }
            />
          }
          label={t('columns.selectAll')}
        />
        <Stack>
          {choosable.map((key) => (
            <FormControlLabel
              key={key}
              control={
                <Checkbox
                  checked={columns[key]}
                  onChange={(event) => onChange({ ...columns, [key]: event.target.checked })}
                />
              }
              label={t(`columns.${key}`)}
            />
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onChange(parseColumns(null))}>{t('columns.reset')}</Button>
        <Button variant="contained" onClick={onClose}>
          {t('columns.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Upstream detection (docs/decisions.md#upstream-detection): the channel's callers by group and client type. */
export function UpstreamDialog({ channel, onClose }: { channel: Channel | null; onClose: () => void }) {
  const t = useT();
  const id = useId();
  return (
    <Dialog open={channel !== null} onClose={onClose} fullWidth maxWidth="md" aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>{t('upstream.title', { name: channel?.name ?? '' })}</DialogTitle>
      <DialogContent>{channel && <UpstreamTable channelId={channel.id} />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('upstream.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

function UpstreamTable({ channelId }: { channelId: number }) {
  const t = useT();
  const result = useTestUpstreamQuery(channelId, { refetchOnMountOrArgChange: true });
  if (result.isFetching) return <CircularProgress />;
  if (result.isError)
    return <Alert severity="error">{describeApiError(result.error, t, t('upstream.loadFailed'))}</Alert>;
  const groups = result.data?.groups ?? [];
  if (groups.length === 0) return <Typography color="text.secondary">{t('upstream.empty')}</Typography>;
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t('upstream.group')}</TableCell>
            <TableCell>{t('upstream.firstSeen')}</TableCell>
            <TableCell>{t('upstream.lastSeen')}</TableCell>
            <TableCell>{t('upstream.clientType')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {groups.map((group) => (
            <TableRow key={group.group}>
              <TableCell>{group.group}</TableCell>
              <TableCell>{formatTimestamp(group.first_seen)}</TableCell>
              <TableCell>{formatTimestamp(group.last_seen)}</TableCell>
              <TableCell>
                <Stack spacing={0.5}>
                  {group.client_types.map((client) => (
                    <Typography key={client.client_type} variant="body2">
                      {t(`upstream.clientTypes.${client.client_type}`, { defaultValue: client.client_type })}{' '}
                      · {t('upstream.count')} {client.count} · {formatTimestamp(client.first_seen)} –{' '}
                      {formatTimestamp(client.last_seen)}
                    </Typography>
                  ))}
                </Stack>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
