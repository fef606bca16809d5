/** Pure rules of the channels screen: types, per-type fields, JSON editors, tag rows, colours. */

/** docs/decisions.md#page-sizes: page size options 10, 20, 50, 100; kept locally as `page-size`. */
export {
  LIST_PAGE_SIZES as PAGE_SIZE_OPTIONS,
  DEFAULT_LIST_PAGE_SIZE as DEFAULT_PAGE_SIZE,
  LIST_PAGE_SIZE_KEY as PAGE_SIZE_STORAGE_KEY,
  listPageSize as parsePageSize,
} from '../../components/page-size';
export const ID_SORT_STORAGE_KEY = 'id-sort';
export const COLUMNS_STORAGE_KEY = 'channels-table-columns';
export const TAG_MODE_STORAGE_KEY = 'channels-tag-mode';

export const ChannelStatus = { enabled: 1, disabled: 2, autoDisabled: 3 } as const;
export type ChannelStatusName = 'enabled' | 'disabled' | 'autoDisabled' | 'unknown';

export function channelStatusName(status: number): ChannelStatusName {
  switch (status) {
    case ChannelStatus.enabled:
      return 'enabled';
    case ChannelStatus.disabled:
      return 'disabled';
    case ChannelStatus.autoDisabled:
      return 'autoDisabled';
    default:
      return 'unknown';
  }
}

/**
 * Channel types (reference data): id and provider name, in the order the type select lists them. The
 * name is the fallback; names that differ by language live in the locale bundles (`types.<id>`).
 */
export const CHANNEL_TYPES: readonly { id: number; name: string }[] = [
  { id: 1, name: 'OpenAI' },
  { id: 2, name: 'Midjourney Proxy' },
  { id: 5, name: 'Midjourney Proxy Plus' },
  { id: 36, name: 'Suno API' },
  { id: 4, name: 'Ollama' },
  { id: 14, name: 'Anthropic Claude' },
  { id: 33, name: 'AWS Claude' },
  { id: 41, name: 'Vertex AI' },
  { id: 3, name: 'Azure OpenAI' },
  { id: 34, name: 'Cohere' },
  { id: 39, name: 'Cloudflare' },
  { id: 43, name: 'DeepSeek' },
  { id: 15, name: 'Baidu Wenxin Qianfan' },
  { id: 46, name: 'Baidu Wenxin Qianfan V2' },
  { id: 17, name: 'Alibaba Tongyi Qianwen' },
  { id: 18, name: 'iFlytek Spark' },
  { id: 16, name: 'Zhipu ChatGLM' },
  { id: 26, name: 'Zhipu GLM-4V' },
  { id: 24, name: 'Google Gemini' },
  { id: 11, name: 'Google PaLM2' },
  { id: 47, name: 'Xinference' },
  { id: 25, name: 'Moonshot' },
  { id: 20, name: 'OpenRouter' },
  { id: 19, name: '360 AI Brain' },
  { id: 23, name: 'Tencent Hunyuan' },
  { id: 31, name: '01.AI' },
  { id: 35, name: 'MiniMax' },
  { id: 37, name: 'Dify' },
  { id: 38, name: 'Jina' },
  { id: 40, name: 'SiliconFlow' },
  { id: 42, name: 'Mistral AI' },
  { id: 44, name: 'MokaAI' },
  { id: 45, name: 'Volcano Ark / Doubao' },
  { id: 48, name: 'xAI' },
  { id: 27, name: 'Perplexity' },
  { id: 8, name: 'Custom channel' },
  { id: 22, name: 'Knowledge base: FastGPT' },
  { id: 21, name: 'Knowledge base: AI Proxy' },
  { id: 6, name: 'Proxy: OpenAI-SB' },
  { id: 7, name: 'Proxy: OhMyGPT' },
  { id: 9, name: 'Proxy: AI.LS' },
  { id: 10, name: 'Proxy: AI Proxy' },
  { id: 12, name: 'Proxy: API2GPT' },
  { id: 13, name: 'Proxy: AIGC2D' },
];

/** Looks a string up in the channels bundle, with the reference name when it has no entry. */
export type TypeNameLookup = (key: string, options: { defaultValue: string }) => string;

export function channelTypeName(type: number | null | undefined, t?: TypeNameLookup): string {
  if (type === null || type === undefined) return '';
  const name = CHANNEL_TYPES.find((entry) => entry.id === type)?.name ?? `#${type}`;
  return t ? t(`types.${type}`, { defaultValue: name }) : name;
}

/** Types whose balance the server can query (docs/api.md "Channel operations"). */
export const BALANCE_TYPES: ReadonlySet<number> = new Set([1, 8, 20, 25, 40, 43]);

/** A form field a channel type adds or relabels; the text keys live under `form.extra.*`. */
export interface ExtraField {
  field: 'base_url' | 'other' | 'openai_organization';
  /** Key under `form.extra` of label, placeholder and help. */
  key: string;
  required?: boolean;
  /** Fixed choices (a select with free text also allowed when `freeSolo`). */
  options?: readonly string[];
  multiline?: boolean;
}

export interface TypeRules {
  extra: ExtraField[];
  /** Keys under `form.notice` shown as an info banner for the type. */
  notices: string[];
  /** True when the generic (optional) base URL field is shown. */
  genericBaseUrl: boolean;
  /** Default value of `other` when empty. */
  defaultOther?: string;
  /** Default models for a new channel of this type. */
  defaultModels?: readonly string[];
  /** Key placeholder key under `form.keyHint`. */
  keyHint: string;
}

export const SPARK_VERSIONS = ['v1.1', 'v2.1', 'v3.1', 'v3.5', 'v4.0'] as const;
export const VOLCENGINE_REGIONS = [
  'https://ark.cn-beijing.volces.com',
  'https://ark.ap-southeast.bytepluses.com',
];
/** The models a Midjourney channel starts with: every action the server routes and bills (its names). */
export const MIDJOURNEY_MODELS = [
  'mj_imagine',
  'mj_variation',
  'mj_reroll',
  'mj_blend',
  'mj_modal',
  'mj_zoom',
  'mj_shorten',
  'mj_pan',
  'mj_describe',
  'mj_upscale',
  'mj_upload',
  'swap_face',
] as const;
export const SUNO_MODELS = ['suno_music', 'suno_lyrics'] as const;
export const AZURE_DEFAULT_VERSION = '2025-04-01-preview';

/** The form of each type: which extra fields, notices and defaults (docs/decisions.md#channel-type-forms). */
export function typeRules(type: number): TypeRules {
  const base: TypeRules = { extra: [], notices: [], genericBaseUrl: true, keyHint: 'default' };
  switch (type) {
    case 1:
      return { ...base, extra: [{ field: 'openai_organization', key: 'organization' }] };
    case 2:
    case 5:
      return {
        ...base,
        defaultModels: MIDJOURNEY_MODELS,
        genericBaseUrl: false,
        extra: [{ field: 'base_url', key: 'midjourneyUrl', required: true }],
      };
    case 3:
      return {
        ...base,
        genericBaseUrl: false,
        notices: ['azure'],
        extra: [
          { field: 'base_url', key: 'azureEndpoint', required: true },
          { field: 'other', key: 'azureVersion' },
        ],
        defaultOther: AZURE_DEFAULT_VERSION,
      };
    case 8:
      return {
        ...base,
        genericBaseUrl: false,
        extra: [{ field: 'base_url', key: 'customUrl', required: true }],
      };
    case 18:
      return {
        ...base,
        extra: [{ field: 'other', key: 'sparkVersion', options: SPARK_VERSIONS }],
        defaultOther: 'v2.1',
      };
    case 21:
      return { ...base, extra: [{ field: 'other', key: 'knowledgeId', required: true }] };
    case 22:
      return { ...base, genericBaseUrl: false, extra: [{ field: 'base_url', key: 'fastgptUrl' }] };
    case 33:
      return { ...base, keyHint: 'aws' };
    case 36:
      return {
        ...base,
        genericBaseUrl: false,
        defaultModels: SUNO_MODELS,
        extra: [{ field: 'base_url', key: 'sunoUrl', required: true }],
      };
    case 37:
      return { ...base, notices: ['dify'] };
    case 39:
      return { ...base, extra: [{ field: 'other', key: 'cloudflareAccount', required: true }] };
    case 40:
      return { ...base, notices: ['siliconflow'] };
    case 41:
      return {
        ...base,
        keyHint: 'vertex',
        extra: [{ field: 'other', key: 'vertexRegion', required: true, multiline: true }],
      };
    case 45:
      return {
        ...base,
        genericBaseUrl: false,
        extra: [{ field: 'base_url', key: 'volcengineRegion', options: VOLCENGINE_REGIONS }],
      };
    default:
      return base;
  }
}

/** Types that have their own form fields (docs/decisions.md#channel-type-forms): 1, 3, 8, 18, 21, 22, 36, 37, 39, 40, 41, 45. */
export const TYPES_WITH_EXTRA_FIELDS = [1, 3, 8, 18, 21, 22, 36, 37, 39, 40, 41, 45] as const;

/** Result of checking one JSON editor: null when fine, else the message key under `form.json`. */
export type JsonCheck = null | 'invalid' | 'notObject' | 'badStatusCode' | 'badMappingValue';

/**
 * JSON editors of the form hold an object as text; blank is allowed (clears it).
 * `mapping`: every value a string (model mapping). `statusCodes`: keys and values HTTP status codes.
 */
export function checkJsonEditor(
  text: string,
  kind: 'object' | 'mapping' | 'statusCodes' = 'object',
): JsonCheck {
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'invalid';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'notObject';
  const entries = Object.entries(value as Record<string, unknown>);
  if (kind === 'mapping' && entries.some(([, target]) => typeof target !== 'string'))
    return 'badMappingValue';
  if (kind === 'statusCodes') {
    const isCode = (code: unknown) => /^[1-5]\d\d$/.test(String(code));
    if (entries.some(([from, to]) => !isCode(from) || !isCode(to))) return 'badStatusCode';
  }
  return null;
}

/** Pretty-prints a JSON editor's text, or leaves it when it does not parse. */
export function formatJsonText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Spec: a base URL ending in /v1 triggers a confirm warning (the server adds /v1 itself). */
export function endsWithV1(baseUrl: string): boolean {
  return /\/v1\/*$/i.test(baseUrl.trim());
}

export function stripTrailingSlashes(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

/** Comma list ↔ array: trimmed, blanks dropped, duplicates removed (first kept). */
export function splitList(value: string | null | undefined): string[] {
  const seen = new Set<string>();
  for (const part of (value ?? '').split(',')) {
    const item = part.trim();
    if (item) seen.add(item);
  }
  return [...seen];
}

/** Adds custom models from a comma or newline list: the new ones and those already present. */
export function addCustomModels(
  current: string[],
  input: string,
): { models: string[]; duplicates: string[] } {
  const duplicates: string[] = [];
  const models = [...current];
  for (const name of splitList(input.replace(/\n/g, ','))) {
    if (models.includes(name)) duplicates.push(name);
    else models.push(name);
  }
  return { models, duplicates };
}

/** Priority: an integer ≥ −999 (server rule); null when not. */
export function parsePriority(value: string): number | null {
  const text = value.trim();
  if (!/^-?\d+$/.test(text)) return null;
  const number = Number(text);
  return number >= -999 && Number.isSafeInteger(number) ? number : null;
}

/** Weight: a non-negative integer; negatives are clamped to 0 (docs/decisions.md#channel-weight); null when not a number. */
export function parseWeight(value: string): number | null {
  const text = value.trim();
  if (!/^-?\d+$/.test(text)) return null;
  const number = Number(text);
  if (number > 2 ** 31 - 1) return null;
  return Math.max(0, number);
}

/** docs/decisions.md#response-time-colours: 0 untested, up to 1 s green, up to 3 s lime, up to 5 s yellow, above that red. */
export type ResponseTimeTone = 'untested' | 'green' | 'lime' | 'yellow' | 'red';

export function responseTimeTone(milliseconds: number): ResponseTimeTone {
  if (!milliseconds) return 'untested';
  if (milliseconds <= 1000) return 'green';
  if (milliseconds <= 3000) return 'lime';
  if (milliseconds <= 5000) return 'yellow';
  return 'red';
}

export const RESPONSE_TIME_COLORS: Record<ResponseTimeTone, string> = {
  untested: '#9e9e9e',
  green: '#2e7d32',
  lime: '#7cb342',
  yellow: '#f9a825',
  red: '#d32f2f',
};

/** `other_info` of an auto-disabled channel: why and when (seconds). */
export function parseStatusInfo(
  otherInfo: string | null | undefined,
): { reason: string; time: number } | null {
  if (!otherInfo) return null;
  try {
    const value = JSON.parse(otherInfo) as { status_reason?: unknown; status_time?: unknown };
    const reason = typeof value.status_reason === 'string' ? value.status_reason : '';
    const time = typeof value.status_time === 'number' ? value.status_time : Number(value.status_time) || 0;
    return reason || time ? { reason, time } : null;
  } catch {
    return null;
  }
}

/** Seconds since epoch → `YYYY-MM-DD HH:mm:ss` in local time; 0 → ''. */
export function formatTimestamp(seconds: number | null | undefined): string {
  if (!seconds) return '';
  const date = new Date(Number(seconds) * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** How a tag row shows priority/weight: the shared value, or blank when the children differ. */
export function tagFieldDisplay(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/** A tag row is enabled when any child is (the server sends status 1 then); used for display. */
export function tagRowEnabled(children: { status: number }[]): boolean {
  return children.some((child) => child.status === ChannelStatus.enabled);
}

/** Column keys of the table, in order; `true` = shown by default. */
export const COLUMN_KEYS = [
  'id',
  'name',
  'group',
  'type',
  'status',
  'responseTime',
  'balance',
  'priority',
  'weight',
  'actions',
] as const;
export type ColumnKey = (typeof COLUMN_KEYS)[number];

export function parseColumns(stored: unknown): Record<ColumnKey, boolean> {
  const result = Object.fromEntries(COLUMN_KEYS.map((key) => [key, true])) as Record<ColumnKey, boolean>;
  if (stored && typeof stored === 'object') {
    for (const key of COLUMN_KEYS) {
      const value = (stored as Record<string, unknown>)[key];
      if (typeof value === 'boolean') result[key] = value;
    }
  }
  // The actions column cannot be hidden: without it nothing can be done.
  result.actions = true;
  return result;
}
