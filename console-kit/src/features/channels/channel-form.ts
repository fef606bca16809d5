import type { Channel, ChannelPayload } from './channels-api';
import {
  checkJsonEditor,
  splitList,
  stripTrailingSlashes,
  parsePriority,
  parseWeight,
  typeRules,
  type JsonCheck,
} from './channel-rules';

/** The drawer's state: text fields as typed, lists as arrays. */
export interface ChannelForm {
  type: number;
  name: string;
  key: string;
  batch: boolean;
  base_url: string;
  other: string;
  openai_organization: string;
  models: string[];
  groups: string[];
  test_model: string;
  model_mapping: string;
  status_code_mapping: string;
  param_override: string;
  setting: string;
  priority: string;
  weight: string;
  tag: string;
  auto_ban: boolean;
  max_input_tokens: string;
  rpm_limit: string;
  tpm_limit: string;
  concurrency_limit: string;
}

/** Requests per minute, tokens per minute, requests in flight; 0 = no limit. */
export const LIMIT_FIELDS = ['rpm_limit', 'tpm_limit', 'concurrency_limit'] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];
/** The server's upper bounds of each limit. */
export const LIMIT_MAX: Record<LimitField, number> = {
  rpm_limit: 1_000_000,
  tpm_limit: 2_000_000_000,
  concurrency_limit: 100_000,
};

/** A limit as typed: a whole number from 0 to its bound ('' counts as 0), else null. */
export function parseLimit(text: string, field: LimitField): number | null {
  const s = text.trim();
  if (s === '') return 0;
  if (!/^\d+$/.test(s)) return null;
  const n = Number(s);
  return n <= LIMIT_MAX[field] ? n : null;
}

export const JSON_EDITORS = [
  { field: 'model_mapping', kind: 'mapping' },
  { field: 'status_code_mapping', kind: 'statusCodes' },
  { field: 'param_override', kind: 'object' },
  { field: 'setting', kind: 'object' },
] as const;
export type JsonEditorField = (typeof JSON_EDITORS)[number]['field'];

export function emptyForm(): ChannelForm {
  return {
    type: 1,
    name: '',
    key: '',
    batch: false,
    base_url: '',
    other: '',
    openai_organization: '',
    models: [],
    groups: ['default'],
    test_model: '',
    model_mapping: '',
    status_code_mapping: '',
    param_override: '',
    setting: '',
    priority: '0',
    weight: '0',
    tag: '',
    auto_ban: true,
    max_input_tokens: '0',
    rpm_limit: '0',
    tpm_limit: '0',
    concurrency_limit: '0',
  };
}

export function formFromChannel(channel: Channel): ChannelForm {
  return {
    type: channel.type,
    name: channel.name,
    key: '',
    batch: false,
    base_url: channel.base_url ?? '',
    other: channel.other ?? '',
    openai_organization: channel.openai_organization ?? '',
    models: splitList(channel.models),
    groups: splitList(channel.group),
    test_model: channel.test_model ?? '',
    model_mapping: channel.model_mapping ?? '',
    status_code_mapping: channel.status_code_mapping ?? '',
    param_override: channel.param_override ?? '',
    setting: channel.setting ?? '',
    priority: String(channel.priority ?? 0),
    weight: String(channel.weight ?? 0),
    tag: channel.tag ?? '',
    auto_ban: channel.auto_ban !== 0,
    max_input_tokens: String(channel.max_input_tokens ?? 0),
    rpm_limit: String(channel.rpm_limit ?? 0),
    tpm_limit: String(channel.tpm_limit ?? 0),
    concurrency_limit: String(channel.concurrency_limit ?? 0),
  };
}

/**
 * A type change on a new channel applies the type's defaults: models of 2/5 (midjourney actions) and
 * 36 (music, lyrics) when none are chosen yet, and the default `other` (18 → v2.1, Azure's version).
 */
export function applyTypeDefaults(form: ChannelForm, type: number): ChannelForm {
  const rules = typeRules(type);
  const previous = typeRules(form.type);
  const modelsAreDefaults =
    form.models.length === 0 ||
    (previous.defaultModels !== undefined && form.models.join(',') === previous.defaultModels.join(','));
  return {
    ...form,
    type,
    models:
      rules.defaultModels && modelsAreDefaults
        ? [...rules.defaultModels]
        : modelsAreDefaults && previous.defaultModels
          ? []
          : form.models,
    other:
      form.other === '' || form.other === previous.defaultOther ? (rules.defaultOther ?? '') : form.other,
  };
}

/** What blocks a submit, as message keys (first one is shown); the JSON editors per field. */
export interface FormProblems {
  message: string | null;
  json: Partial<Record<JsonEditorField, Exclude<JsonCheck, null>>>;
  /** The extra field (by its text key) that is required and empty. */
  missingExtra: string | null;
}

export function checkForm(form: ChannelForm, isEdit: boolean): FormProblems {
  const json: FormProblems['json'] = {};
  for (const { field, kind } of JSON_EDITORS) {
    const problem = checkJsonEditor(form[field], kind);
    if (problem) json[field] = problem;
  }
  let message: string | null = null;
  if (!isEdit && (form.name.trim() === '' || form.key.trim() === '')) message = 'form.required';
  else if (form.name.trim() === '') message = 'form.nameRequired';
  else if (form.models.length === 0) message = 'form.modelsRequired';
  else if (parsePriority(form.priority) === null) message = 'actions.priorityInvalid';
  else if (parseWeight(form.weight) === null) message = 'actions.weightInvalid';
  else if (!/^\d+$/.test(form.max_input_tokens.trim())) message = 'form.checkInput';
  else if (LIMIT_FIELDS.some((f) => parseLimit(form[f], f) === null)) message = 'form.limitInvalid';
  else if (Object.keys(json).length > 0) message = 'form.checkInput';
  const missing = typeRules(form.type).extra.find(
    (extra) => extra.required && form[extra.field].trim() === '',
  );
  if (!message && missing) message = 'form.extraRequired';
  return { message, json, missingExtra: missing?.key ?? null };
}

/** The body of the create or update call. An empty key on edit is left out: the stored key stays. */
export function payloadFromForm(form: ChannelForm, id?: number): ChannelPayload {
  const rules = typeRules(form.type);
  const other = form.other.trim() === '' && rules.defaultOther ? rules.defaultOther : form.other.trim();
  const payload: ChannelPayload = {
    type: form.type,
    name: form.name.trim(),
    base_url: stripTrailingSlashes(form.base_url),
    other,
    openai_organization: form.openai_organization.trim(),
    models: form.models.join(','),
    group: (form.groups.length > 0 ? form.groups : ['default']).join(','),
    test_model: form.test_model.trim(),
    model_mapping: form.model_mapping.trim(),
    status_code_mapping: form.status_code_mapping.trim(),
    param_override: form.param_override.trim(),
    setting: form.setting.trim(),
    priority: parsePriority(form.priority) ?? 0,
    weight: parseWeight(form.weight) ?? 0,
    tag: form.tag.trim(),
    auto_ban: form.auto_ban ? 1 : 0,
    max_input_tokens: Number(form.max_input_tokens.trim()) || 0,
    rpm_limit: parseLimit(form.rpm_limit, 'rpm_limit') ?? 0,
    tpm_limit: parseLimit(form.tpm_limit, 'tpm_limit') ?? 0,
    concurrency_limit: parseLimit(form.concurrency_limit, 'concurrency_limit') ?? 0,
  };
  if (id !== undefined) payload.id = id;
  if (form.key.trim() !== '') payload.key = form.key.trim();
  if (id === undefined && form.batch) payload.mode = 'batch';
  return payload;
}
