import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { FormDrawer, formChanged, useUnsavedEdits } from '../../components/form-drawer';
import { describeApiError } from '../../api/describe-api-error';
import { useQuotaFormat } from '../../format/use-quota-format';
import { useCopyText } from '../../provider/clipboard';
import { useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { ExpiryPicker } from '../../components/expiry-picker';
import { expiryFromPreset } from '../../lib/expiry';
import {
  codesText,
  DEFAULT_REDEMPTION_COUNT,
  DEFAULT_REDEMPTION_QUOTA,
  REDEMPTION_EXPIRY_PRESETS,
  REDEMPTION_NEVER_EXPIRES,
  redemptionExpiryText,
  validateRedemptionForm,
  type RedemptionForm,
} from './redemption-rules';
import {
  useCreateRedemptionsMutation,
  useGetRedemptionQuery,
  useUpdateRedemptionMutation,
} from './redemptions-api';
import { REDEMPTIONS_NAMESPACE, redemptionsLocales } from './redemptions-locales';

const DRAWER_WIDTH = 600;

export interface RedemptionDrawerProps {
  /** null: closed; 'new': create; a number: edit that code. */
  target: number | 'new' | null;
  onClose: () => void;
  /** Called with the codes a create returned. */
  onCreated: (codes: string[]) => void;
}

export function RedemptionDrawer({ target, onClose, onCreated }: RedemptionDrawerProps) {
  return (
    <FormDrawer open={target !== null} onClose={onClose} width={DRAWER_WIDTH}>
      {target === 'new' && (
        <RedemptionFormView
          initial={{
            name: '',
            quota: String(DEFAULT_REDEMPTION_QUOTA),
            count: String(DEFAULT_REDEMPTION_COUNT),
            expiry: '',
          }}
          onClose={onClose}
          onCreated={onCreated}
        />
      )}
      {typeof target === 'number' && <EditLoader id={target} onClose={onClose} />}
    </FormDrawer>
  );
}

function EditLoader({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useFeatureTranslation(REDEMPTIONS_NAMESPACE, redemptionsLocales);
  const code = useGetRedemptionQuery(id, { refetchOnMountOrArgChange: true });
  if (code.isError) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="error">{describeApiError(code.error, t)}</Alert>
      </Box>
    );
  }
  if (!code.data || code.isFetching) {
    return (
      <Box sx={{ p: 3, display: 'flex', justifyContent: 'center' }}>
        <CircularProgress aria-label="loading" />
      </Box>
    );
  }
  return (
    <RedemptionFormView
      id={id}
      initial={{
        name: code.data.name,
        quota: String(code.data.quota),
        count: '1',
        expiry: redemptionExpiryText(code.data.expired_time),
      }}
      storedExpiry={code.data.expired_time ?? REDEMPTION_NEVER_EXPIRES}
      onClose={onClose}
    />
  );
}

interface FormViewProps {
  id?: number;
  initial: RedemptionForm;
  /** The code's `expired_time` as stored (edit): it may be kept even when it has passed. */
  storedExpiry?: number;
  onClose: () => void;
  onCreated?: (codes: string[]) => void;
}

function RedemptionFormView({ id, initial, storedExpiry, onClose, onCreated }: FormViewProps) {
  const { t } = useFeatureTranslation(REDEMPTIONS_NAMESPACE, redemptionsLocales);
  const notify = useNotify();
  const { formatQuota } = useQuotaFormat();
  const [create, creating] = useCreateRedemptionsMutation();
  const [update, updating] = useUpdateRedemptionMutation();
  const [form, setForm] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  useUnsavedEdits(formChanged(initial, form));
  const isNew = id === undefined;
  const quota = Number(form.quota);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = validateRedemptionForm(form, isNew, Date.now() / 1000, storedExpiry);
    if (!checked.ok) {
      setError(t(`drawer.errors.${checked.error}`));
      return;
    }
    setError(null);
    try {
      if (isNew) {
        const codes = await create({
          name: checked.name,
          quota: checked.quota,
          count: checked.count,
          expired_time: checked.expiredTime,
        }).unwrap();
        onClose();
        onCreated?.(codes);
      } else {
        await update({
          id,
          name: checked.name,
          quota: checked.quota,
          expired_time: checked.expiredTime,
        }).unwrap();
        notify(t('drawer.updated'), 'success');
        onClose();
      }
    } catch (failure) {
      setError(describeApiError(failure, t));
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {isNew ? t('drawer.createTitle') : t('drawer.editTitle')}
        </Typography>
        <TextField
          label={t('drawer.name')}
          placeholder={isNew ? t('drawer.namePlaceholder') : undefined}
          name="name"
          autoComplete="off"
          value={form.name}
          onChange={(event) => setForm({ ...form, name: event.target.value })}
          fullWidth
        />
        <TextField
          label={t('drawer.quota')}
          name="quota"
          inputMode="numeric"
          value={form.quota}
          onChange={(event) => setForm({ ...form, quota: event.target.value })}
          helperText={
            Number.isFinite(quota) && form.quota.trim() !== ''
              ? t('drawer.quotaHelp', { value: formatQuota(quota) })
              : ' '
          }
          fullWidth
        />
        {isNew && (
          <TextField
            label={t('drawer.count')}
            name="count"
            inputMode="numeric"
            value={form.count}
            onChange={(event) => setForm({ ...form, count: event.target.value })}
            fullWidth
          />
        )}
        <ExpiryPicker
          label={t('drawer.expiry')}
          helperText={t('drawer.expiryHelp')}
          name="expired_time"
          value={form.expiry}
          onChange={(expiry) => setForm((current) => ({ ...current, expiry }))}
          presets={REDEMPTION_EXPIRY_PRESETS.map((preset) => ({
            id: preset,
            label: t(`drawer.presets.${preset}`),
            text: () => expiryFromPreset(preset),
          }))}
        />
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

/** Shows the codes a create returned, with a copy-all button. */
export function CreatedCodesDialog({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  const { t } = useFeatureTranslation(REDEMPTIONS_NAMESPACE, redemptionsLocales);
  const copyText = useCopyText();
  return (
    <Dialog open={codes !== null} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('created.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('created.message', { count: codes?.length ?? 0 })}</DialogContentText>
        <Box
          component="pre"
          data-testid="created-codes"
          sx={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-all', mt: 1, mb: 0 }}
        >
          {codesText(codes ?? [])}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void copyText(codesText(codes ?? []), t('actions.copied'))}>
          {t('created.copyAll')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {t('created.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
