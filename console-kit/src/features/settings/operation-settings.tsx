import { useState } from 'react';
import { Alert, Button, Divider, Stack, TextField, Typography } from '@mui/material';
import { useApiAction } from '../../api/use-api-action';
import { useNotify } from '../../provider/console-context';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { OptionsPanel, type FieldSpec } from './options-panel';
import { useDeleteLogsBeforeMutation, type OptionValues } from './options-api';
import { RatioSettings } from './ratio-settings';
import { useSettingsTranslation } from './settings-locales';
import { GroupBudgetsPanel } from './group-budgets-panel';

const GENERAL: FieldSpec[] = [
  { key: 'DisplayInCurrencyEnabled', kind: 'bool' },
  { key: 'DisplayTokenStatEnabled', kind: 'bool' },
  { key: 'DefaultCollapseSidebar', kind: 'bool' },
  { key: 'SelfUseModeEnabled', kind: 'bool' },
  { key: 'DemoSiteEnabled', kind: 'bool' },
  { key: 'TopUpLink', kind: 'url' },
  { key: 'general_setting.docs_link', kind: 'url' },
  { key: 'QuotaPerUnit', kind: 'float', min: 1 },
  { key: 'RetryTimes', kind: 'int', min: 0, max: 10 },
  { key: 'USDExchangeRate', kind: 'float', min: 0 },
  { key: 'StreamCacheQueueLength', kind: 'int', min: 0, max: 100000 },
];

const DRAWING: FieldSpec[] = [
  { key: 'DrawingEnabled', kind: 'bool' },
  { key: 'TaskEnabled', kind: 'bool' },
  { key: 'MjNotifyEnabled', kind: 'bool' },
  { key: 'MjAccountFilterEnabled', kind: 'bool' },
  { key: 'MjForwardUrlEnabled', kind: 'bool' },
  { key: 'MjModeClearEnabled', kind: 'bool' },
  { key: 'MjActionCheckSuccessEnabled', kind: 'bool' },
];

const SENSITIVE: FieldSpec[] = [
  { key: 'CheckSensitiveEnabled', kind: 'bool' },
  { key: 'CheckSensitiveOnPromptEnabled', kind: 'bool' },
  { key: 'SensitiveWords', kind: 'textarea' },
];

const LOG: FieldSpec[] = [
  { key: 'LogConsumeEnabled', kind: 'bool' },
  { key: 'ContentLogUserViewEnabled', kind: 'bool' },
  { key: 'ContentLogMaxBytes', kind: 'int', min: 1024, max: 16 * 1024 * 1024 },
  { key: 'ContentLogRetentionDays', kind: 'int', min: 1, max: 3650 },
  { key: 'ContentLogRedactPaths', kind: 'textarea' },
];

const DASHBOARD: FieldSpec[] = [
  { key: 'DataExportEnabled', kind: 'bool' },
  { key: 'DataExportInterval', kind: 'int', min: 1, max: 1440 },
  { key: 'DataExportDefaultTime', kind: 'select', choices: ['hour', 'day', 'week'] },
  { key: 'TimeZone', kind: 'text' },
];

const MONITORING: FieldSpec[] = [
  { key: 'AutomaticDisableChannelEnabled', kind: 'bool' },
  { key: 'AutomaticEnableChannelEnabled', kind: 'bool' },
  { key: 'ChannelDisableThreshold', kind: 'float', min: 0 },
  { key: 'ChannelTestFrequency', kind: 'int', min: 0, max: 10080 },
  { key: 'QuotaRemindThreshold', kind: 'int', min: 0 },
  { key: 'AutomaticDisableKeywords', kind: 'textarea' },
];

const QUOTA: FieldSpec[] = [
  { key: 'QuotaForNewUser', kind: 'int', min: 0 },
  { key: 'PreConsumedQuota', kind: 'int', min: 0 },
  { key: 'QuotaForInviter', kind: 'int', min: 0 },
  { key: 'QuotaForInvitee', kind: 'int', min: 0 },
];

const CHATS: FieldSpec[] = [{ key: 'Chats', kind: 'json', json: 'array' }];

const GROUPS: FieldSpec[] = [
  { key: 'DefaultUseAutoGroup', kind: 'bool' },
  { key: 'GroupRatio', kind: 'json', json: 'number-map' },
  { key: 'UserUsableGroups', kind: 'json', json: 'object' },
  { key: 'GroupGroupRatio', kind: 'json', json: 'object' },
  { key: 'AutoGroups', kind: 'json', json: 'array' },
];

/** Operation tab: nine cards (docs/decisions.md#operation-tab-cards), then the ratio area with its reset button. */
export function OperationSettings({ options }: { options: OptionValues }) {
  const { t } = useSettingsTranslation();
  return (
    <Stack spacing={2}>
      <OptionsPanel
        id="general"
        fields={GENERAL}
        options={options}
        warning={<Alert severity="warning">{t('warnings.quotaPerUnit')}</Alert>}
      />
      <OptionsPanel id="drawing" fields={DRAWING} options={options} />
      <OptionsPanel id="sensitive" fields={SENSITIVE} options={options} />
      <OptionsPanel id="log" fields={LOG} options={options} extra={() => <LogCleanup />} />
      <OptionsPanel id="dashboard" fields={DASHBOARD} options={options} />
      <OptionsPanel id="monitoring" fields={MONITORING} options={options} />
      <OptionsPanel id="quota" fields={QUOTA} options={options} />
      <OptionsPanel id="chats" fields={CHATS} options={options} />
      <OptionsPanel id="groups" fields={GROUPS} options={options} />
      <GroupBudgetsPanel options={options} />
      <RatioSettings options={options} />
    </Stack>
  );
}

/** `DELETE /api/log/?target_timestamp=`: removes every log older than the chosen time. */
function LogCleanup() {
  const { t } = useSettingsTranslation();
  const notify = useNotify();
  const [time, setTime] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [deleteLogs] = useDeleteLogsBeforeMutation();
  const deleting = useApiAction(t);

  const start = () => {
    if (!time || Number.isNaN(new Date(time).getTime())) {
      notify(t('log.dateRequired'), 'error');
      return;
    }
    setConfirming(true);
  };
  const clear = async () => {
    setConfirming(false);
    await deleting.run(() => deleteLogs(Math.floor(new Date(time).getTime() / 1000)).unwrap(), {
      success: (count) => t('log.cleared', { count: Number(count) || 0 }),
    });
  };

  return (
    <Stack spacing={1}>
      <Divider />
      <Typography variant="subtitle2" component="h3">
        {t('log.clearTitle')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          type="datetime-local"
          size="small"
          name="log_before"
          label={t('log.before')}
          value={time}
          onChange={(event) => setTime(event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button color="error" variant="outlined" onClick={start} disabled={deleting.busy}>
          {t('log.clear')}
        </Button>
      </Stack>
      <ConfirmDialog
        open={confirming}
        title={t('actions.confirmTitle')}
        message={t('log.confirm', { time: time.replace('T', ' ') })}
        confirmLabel={t('actions.confirm')}
        cancelLabel={t('actions.cancel')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void clear()}
      />
    </Stack>
  );
}
