import { fail } from '../../common/app-error';
import { checkLimits } from '../../common/scoped-limit-rules';
import { CHANNEL_TYPES } from './channel-types';
import { INT32_MAX } from '../../common/ids';
import { splitList } from '../../common/lists';
import { ChannelInput } from './channel.service';

/** Column limits (characters) of the channels and abilities tables. */
export const CHANNEL_LIMITS = {
  name: 128,
  base_url: 512,
  openai_organization: 128,
  test_model: 255,
  tag: 64,
  group: 255,
  groupName: 64,
  model: 191,
} as const;

export const PRIORITY_MIN = -999;

/** Text fields holding a JSON object. */
export const JSON_FIELDS = ['model_mapping', 'status_code_mapping', 'param_override', 'setting'] as const;
type JsonField = (typeof JSON_FIELDS)[number];

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_EXCEPT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f]/;

const chars = (s: string) => [...s].length;
const given = (v: unknown) => v !== undefined;
const blank = (v: unknown) => v === undefined || v === null;

function bad(field: string, reason: string): never {
  throw fail('channel_field_invalid', { field, reason });
}

function tooLong(field: string, value: string, max: number): void {
  if (chars(value) > max) throw fail('channel_field_too_long', { field, max });
}

/** Optional text: undefined stays undefined (unchanged), null or '' become null. */
function optText(raw: Record<string, unknown>, field: string, max: number): string | null | undefined {
  const v = raw[field];
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (typeof v !== 'string') bad(field, 'must be text');
  const s = v.trim();
  if (!s) return null;
  if (CONTROL.test(s)) bad(field, 'must not contain control characters');
  tooLong(field, s, max);
  return s;
}

/** The rule of an optional text field of a write: text without control characters, at most `max` characters. */
export function checkText(v: unknown, field: string, max: number): void {
  optText({ [field]: v }, field, max);
}

/** A channel key: text (one key per line in batch mode). */
export function checkKey(v: unknown): void {
  if (typeof v !== 'string') bad('key', 'must be text');
  if (CONTROL_EXCEPT_NEWLINE.test(v.trim().replace(/\r/g, '')))
    bad('key', 'must not contain control characters');
}

/** Free text of the channel type (an API version, or a JSON object for some types). */
export function checkOther(v: unknown): void {
  if (typeof v !== 'string') bad('other', 'must be text');
}

/** A comma list given as text or as an array of strings; undefined when absent. */
function list(raw: Record<string, unknown>, field: string): string[] | undefined {
  const v = raw[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return splitList(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return splitList(v.join(','));
  return bad(field, 'must be a comma-separated list');
}

export function checkModels(raw: Record<string, unknown>, field = 'models'): string | undefined {
  const models = list(raw, field);
  if (models === undefined) return undefined;
  for (const m of models) {
    if (CONTROL.test(m)) bad(field, 'must not contain control characters');
    tooLong('model', m, CHANNEL_LIMITS.model);
  }
  return models.join(',');
}

/** `group` (comma list) or `groups` (the edit side's list); an empty list means "default". */
export function checkGroups(raw: Record<string, unknown>): string | undefined {
  const groups = list(raw, 'groups') ?? list(raw, 'group');
  if (groups === undefined) return undefined;
  for (const g of groups) {
    if (CONTROL.test(g)) bad('group', 'must not contain control characters');
    tooLong('group', g, CHANNEL_LIMITS.groupName);
  }
  const joined = groups.join(',') || 'default';
  tooLong('group', joined, CHANNEL_LIMITS.group);
  return joined;
}

/** A JSON object as text ('' / null clear it); an object is accepted and serialised. */
export function checkJsonObject(raw: Record<string, unknown>, field: JsonField): string | null | undefined {
  const v = raw[field];
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (typeof v === 'object' && !Array.isArray(v)) return JSON.stringify(v);
  if (typeof v !== 'string') throw fail('channel_json_invalid', { field });
  if (!v.trim()) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw fail('channel_json_invalid', { field });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw fail('channel_json_invalid', { field });
  return v.trim();
}

export function checkPriority(v: unknown): number | undefined {
  if (blank(v)) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < PRIORITY_MIN)
    throw fail('channel_priority_invalid');
  return v;
}

export function checkWeight(v: unknown): number | undefined {
  if (blank(v)) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > INT32_MAX)
    throw fail('channel_weight_invalid');
  return v;
}

export function checkTag(v: unknown, field = 'tag'): string | null | undefined {
  return optText({ [field]: v }, field, CHANNEL_LIMITS.tag);
}

/**
 * Validates the writable fields of a channel. On create the spec's required fields are enforced;
 * on update only the fields present are checked (absent = unchanged, empty key = keep the key).
 */
export function checkChannel(raw: Record<string, unknown>, creating: boolean): Partial<ChannelInput> {
  const out: Partial<ChannelInput> = {};

  if (given(raw.type) || creating) {
    const type = raw.type ?? 1;
    if (typeof type !== 'number' || !Number.isInteger(type) || !CHANNEL_TYPES[type])
      throw fail('channel_type_invalid');
    out.type = type;
  }

  const name = raw.name;
  const key = raw.key;
  if (name !== undefined && name !== null && typeof name !== 'string') bad('name', 'must be text');
  if (key !== undefined && key !== null && typeof key !== 'string') bad('key', 'must be text');
  const nameText = typeof name === 'string' ? name.trim() : '';
  const keyText = typeof key === 'string' ? key.trim() : '';
  if (creating && (!nameText || !keyText)) throw fail('channel_name_key_required');
  if (name !== undefined) {
    if (!nameText) throw fail('channel_name_required');
    if (CONTROL.test(nameText)) bad('name', 'must not contain control characters');
    tooLong('name', nameText, CHANNEL_LIMITS.name);
    out.name = nameText;
  }
  if (keyText) {
    if (CONTROL_EXCEPT_NEWLINE.test(keyText.replace(/\r/g, '')))
      bad('key', 'must not contain control characters');
    out.key = keyText.replace(/\r\n?/g, '\n');
  }

  const models = checkModels(raw);
  if ((creating || models !== undefined) && !models) throw fail('channel_models_required');
  if (models !== undefined) out.models = models;

  const group = checkGroups(raw);
  if (group !== undefined) out.group = group;

  const baseUrl = optText(raw, 'base_url', CHANNEL_LIMITS.base_url);
  if (baseUrl) {
    if (!/^https?:\/\/[^\s/?#]+/i.test(baseUrl)) throw fail('channel_base_url_invalid');
    out.base_url = baseUrl.replace(/\/+$/, '');
  } else if (baseUrl === null) {
    out.base_url = null;
  }

  if (raw.other !== undefined) {
    if (raw.other !== null && typeof raw.other !== 'string') bad('other', 'must be text');
    const other = typeof raw.other === 'string' ? raw.other.trim() : '';
    // Some types (e.g. Vertex AI) take either plain text or a JSON object here: JSON must parse.
    if (other.startsWith('{') || other.startsWith('[')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(other);
      } catch {
        parsed = null;
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw fail('channel_json_invalid', { field: 'other' });
    }
    out.other = other || null;
  }

  const org = optText(raw, 'openai_organization', CHANNEL_LIMITS.openai_organization);
  if (org !== undefined) out.openai_organization = org;
  const testModel = optText(raw, 'test_model', CHANNEL_LIMITS.test_model);
  if (testModel !== undefined) out.test_model = testModel;
  const tag = checkTag(raw.tag);
  if (tag !== undefined) out.tag = tag;

  for (const f of JSON_FIELDS) {
    const v = checkJsonObject(raw, f);
    if (v !== undefined) out[f] = v;
  }

  const priority = checkPriority(raw.priority);
  if (priority !== undefined) out.priority = priority;
  const weight = checkWeight(raw.weight);
  if (weight !== undefined) out.weight = weight;

  if (!blank(raw.auto_ban)) {
    const v = raw.auto_ban;
    if (v === true || v === 1) out.auto_ban = 1;
    else if (v === false || v === 0) out.auto_ban = 0;
    else bad('auto_ban', 'must be 0 or 1');
  }
  if (!blank(raw.status)) {
    const allowed = creating ? [1, 2] : [1, 2, 3];
    if (typeof raw.status !== 'number' || !allowed.includes(raw.status))
      bad('status', `must be one of ${allowed.join(', ')}`);
    out.status = raw.status;
  }
  if (!blank(raw.max_input_tokens)) {
    const v = raw.max_input_tokens;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > INT32_MAX)
      bad('max_input_tokens', 'must be a non-negative integer');
    out.max_input_tokens = v;
  }
  Object.assign(out, checkLimits(raw));
  return out;
}
