import { Alert, Stack } from '@mui/material';
import { AgentSettings } from './agent-settings';
import { OptionsPanel, type FieldSpec } from './options-panel';
import type { OptionValues } from './options-api';
import { useSettingsTranslation } from './settings-locales';

const RATE_LIMIT: FieldSpec[] = [
  { key: 'ModelRequestRateLimitEnabled', kind: 'bool' },
  { key: 'ModelRequestRateLimitDurationMinutes', kind: 'int', min: 0, max: 1440 },
  { key: 'ModelRequestRateLimitCount', kind: 'int', min: 0 },
  { key: 'ModelRequestRateLimitSuccessCount', kind: 'int', min: 1 },
  { key: 'ModelRequestRateLimitGroup', kind: 'json', json: 'object' },
];

const PING_ON = 'general_setting.ping_interval_enabled';

const GLOBAL: FieldSpec[] = [
  { key: 'global.pass_through_request_enabled', kind: 'bool' },
  { key: PING_ON, kind: 'bool' },
  {
    key: 'general_setting.ping_interval_seconds',
    kind: 'int',
    min: 1,
    max: 3600,
    disabledWhen: (values) => values[PING_ON] !== 'true',
  },
];

const GEMINI: FieldSpec[] = [
  { key: 'gemini.thinking_adapter_enabled', kind: 'bool' },
  { key: 'gemini.thinking_adapter_budget_tokens_percentage', kind: 'float', min: 0.1, max: 1 },
  { key: 'gemini.safety_settings', kind: 'json', json: 'object' },
  { key: 'gemini.version_settings', kind: 'json', json: 'object' },
  { key: 'gemini.supported_imagine_models', kind: 'json', json: 'array' },
];

const CLAUDE: FieldSpec[] = [
  { key: 'claude.thinking_adapter_enabled', kind: 'bool' },
  { key: 'claude.thinking_adapter_budget_tokens_percentage', kind: 'float', min: 0.1, max: 1 },
  { key: 'claude.model_headers_settings', kind: 'json', json: 'object' },
  { key: 'claude.default_max_tokens', kind: 'json', json: 'number-map' },
];

export function RateLimitSettings({ options }: { options: OptionValues }) {
  const { t } = useSettingsTranslation();
  return (
    <OptionsPanel
      id="rateLimit"
      fields={RATE_LIMIT}
      options={options}
      warning={<Alert severity="info">{t('warnings.rateLimit')}</Alert>}
    />
  );
}

/** Models tab: global, Gemini and Claude settings, coding agents and channel affinity. */
export function ModelSettings({ options }: { options: OptionValues }) {
  return (
    <Stack spacing={2}>
      <OptionsPanel id="modelsGlobal" fields={GLOBAL} options={options} />
      <OptionsPanel id="gemini" fields={GEMINI} options={options} />
      <OptionsPanel id="claude" fields={CLAUDE} options={options} />
      <AgentSettings options={options} />
    </Stack>
  );
}
