import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { SelfUser, UserSetting } from '../../api/api-types';
import { describeApiError } from '../../api/describe-api-error';
import { useQuotaFormat } from '../../format/use-quota-format';
import { useNotify } from '../../provider/console-context';
import { useUpdateUserSettingMutation } from './personal-api';
import {
  parseUserSetting,
  thresholdPresetLabel,
  toNotificationPayload,
  validateNotificationSetting,
  WARNING_THRESHOLD_PRESETS,
} from './personal-rules';
import { usePersonalTranslation } from './use-personal-translation';

/** Quota warning: email or https webhook, threshold with presets labelled in dollars (docs/decisions.md#quota-warning-presets). */
export function NotificationPanel({ self }: { self: SelfUser }) {
  const { t } = usePersonalTranslation();
  const notify = useNotify();
  const { options, formatQuota } = useQuotaFormat();
  const [save, { isLoading }] = useUpdateUserSettingMutation();
  const [setting, setSetting] = useState<UserSetting>(() => parseUserSetting(self.setting));
  const [thresholdText, setThresholdText] = useState(() => String(setting.quota_warning_threshold));
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof UserSetting>(field: K, value: UserSetting[K]) => {
    setSetting((current) => ({ ...current, [field]: value }));
    setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = {
      ...setting,
      quota_warning_threshold: thresholdText.trim() === '' ? Number.NaN : Number(thresholdText),
    };
    const problem = validateNotificationSetting(next);
    if (problem) {
      setError(t(problem.messageKey));
      return;
    }
    try {
      await save(toNotificationPayload(next)).unwrap();
      setSetting({ ...next, webhook_secret: '' });
      notify(t('notification.success'), 'success');
    } catch (failure) {
      setError(describeApiError(failure, t, t('failed')));
    }
  };

  const thresholdNumber = Number(thresholdText);

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={(event) => void submit(event)} sx={{ py: 1 }}>
      <FormControl>
        <FormLabel id="gatehouse-notify-type">{t('notification.type')}</FormLabel>
        <RadioGroup
          row
          aria-labelledby="gatehouse-notify-type"
          name="notify_type"
          value={setting.notify_type}
          onChange={(event) => set('notify_type', event.target.value === 'webhook' ? 'webhook' : 'email')}
        >
          <FormControlLabel value="email" control={<Radio />} label={t('notification.email')} />
          <FormControlLabel value="webhook" control={<Radio />} label={t('notification.webhook')} />
        </RadioGroup>
      </FormControl>
      <TextField
        label={t('notification.threshold')}
        name="quota_warning_threshold"
        type="number"
        value={thresholdText}
        onChange={(event) => {
          setThresholdText(event.target.value);
          setError(null);
        }}
        helperText={
          Number.isFinite(thresholdNumber) && thresholdText.trim() !== ''
            ? `${t('notification.thresholdHint')} · ${formatQuota(thresholdNumber)}`
            : t('notification.thresholdHint')
        }
        slotProps={{ htmlInput: { min: 0, step: 1 } }}
        fullWidth
      />
      <Box>
        <Typography variant="caption" color="text.secondary" component="p" gutterBottom>
          {t('notification.presets')}
        </Typography>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          {WARNING_THRESHOLD_PRESETS.map((preset) => (
            <Chip
              key={preset}
              label={thresholdPresetLabel(preset, options.quotaPerUnit)}
              color={thresholdNumber === preset ? 'primary' : 'default'}
              variant={thresholdNumber === preset ? 'filled' : 'outlined'}
              onClick={() => {
                setThresholdText(String(preset));
                setError(null);
              }}
            />
          ))}
        </Stack>
      </Box>
      {setting.notify_type === 'email' ? (
        <TextField
          label={t('notification.notificationEmail')}
          name="notification_email"
          type="email"
          value={setting.notification_email}
          onChange={(event) => set('notification_email', event.target.value)}
          helperText={t('notification.notificationEmailHint')}
          fullWidth
        />
      ) : (
        <>
          <TextField
            label={t('notification.webhookUrl')}
            name="webhook_url"
            value={setting.webhook_url}
            onChange={(event) => set('webhook_url', event.target.value)}
            helperText={t('notification.webhookUrlHint')}
            placeholder="https://"
            fullWidth
          />
          <TextField
            label={t('notification.webhookSecret')}
            name="webhook_secret"
            type="password"
            autoComplete="off"
            value={setting.webhook_secret}
            onChange={(event) => set('webhook_secret', event.target.value)}
            helperText={t('notification.webhookSecretHint')}
            fullWidth
          />
        </>
      )}
      {error && <Alert severity="error">{error}</Alert>}
      <Box>
        <Button type="submit" variant="contained" disabled={isLoading}>
          {t('notification.save')}
        </Button>
      </Box>
    </Stack>
  );
}
