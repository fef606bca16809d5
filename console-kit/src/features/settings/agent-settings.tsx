import { Stack } from '@mui/material';
import type { TFunction } from 'i18next';
import { OptionsPanel, type FieldSpec } from './options-panel';
import type { OptionValues } from './options-api';
import {
  affinityRulesProblem,
  headerListProblem,
  nameListProblem,
  type AgentProblem,
} from './agent-settings-rules';
import { useAgentSettingsTranslation } from './agent-settings-locales';

const message = (t: TFunction, problem: AgentProblem | null): string | null =>
  problem ? t(`agentValidation.${problem.key}`, problem.values) : null;

const AGENTS: FieldSpec[] = [
  { key: 'relay.effort_suffixes_enabled', kind: 'bool' },
  { key: 'general_setting.retry_timeout_same_channel', kind: 'bool' },
  {
    key: 'relay.forward_client_headers',
    kind: 'json',
    json: 'array',
    validate: (value, { t }) => message(t, headerListProblem(value)),
  },
  {
    key: 'relay.reasoning_models',
    kind: 'json',
    json: 'array',
    validate: (value, { t }) => message(t, nameListProblem(value)),
  },
  { key: 'CacheCreation1hRatio', kind: 'json', json: 'number-map' },
];

const AFFINITY_ON = 'channel_affinity.enabled';
const affinityOff = (values: Readonly<Record<string, string>>) => values[AFFINITY_ON] !== 'true';

const AFFINITY: FieldSpec[] = [
  { key: AFFINITY_ON, kind: 'bool' },
  { key: 'channel_affinity.ttl_seconds', kind: 'int', min: 1, max: 7 * 86400, disabledWhen: affinityOff },
  {
    key: 'channel_affinity.headers',
    kind: 'json',
    json: 'array',
    disabledWhen: affinityOff,
    validate: (value, { t }) => message(t, headerListProblem(value, false)),
  },
  {
    key: 'channel_affinity.rules',
    kind: 'json',
    json: 'array',
    disabledWhen: affinityOff,
    validate: (value, { t }) => message(t, affinityRulesProblem(value)),
  },
];

/** Models tab: what coding agents across formats rely on, and channel affinity. */
export function AgentSettings({ options }: { options: OptionValues }) {
  // Loads the labels before the panels read them.
  useAgentSettingsTranslation();
  return (
    <Stack spacing={2}>
      <OptionsPanel id="agents" fields={AGENTS} options={options} />
      <OptionsPanel id="channelAffinity" fields={AFFINITY} options={options} />
    </Stack>
  );
}
