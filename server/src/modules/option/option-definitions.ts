import { isTimeZone } from '../../common/calendar';
import { isObject as isPlainObject } from '../../common/json';
import { MessageKey } from '../../common/i18n/messages';
import { parsePaths, pathProblem } from '../../common/redact-paths';
import { groupBudgetsProblem } from '../../common/budget-rules';
import {
  DEFAULT_CACHE_RATIO,
  DEFAULT_COMPLETION_RATIO,
  DEFAULT_MODEL_PRICE,
  DEFAULT_MODEL_RATIO,
} from './default-prices';

export type OptionKind = 'bool' | 'int' | 'float' | 'string' | 'text' | 'url' | 'json';

/** A validation failure: a message key plus its parameters. */
export type OptionProblem = { key: MessageKey; params?: Record<string, unknown> };

export interface OptionDef<K extends string = string, Kind extends OptionKind = OptionKind> {
  key: K;
  kind: Kind;
  default: string;
  /** Write-only, encrypted at rest, never returned. */
  secret?: boolean;
  /** Only root may change it; admins see it read-only. */
  rootOnly?: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
  /** Extra check of the parsed value. */
  check?: (value: unknown, raw: string) => OptionProblem | null;
  /** Normalises the raw string before it is stored (e.g. strip a trailing slash). */
  normalize?: (raw: string) => string;
}

type NumberMap = Record<string, number>;
type StringMap = Record<string, string>;
/** A JSON option's default with its value type declared (what OptionService.json returns for it). */
const typed = <T>(value: T): T => value;

/** What a definition may add to its kind's defaults. */
type Extra = Omit<Partial<OptionDef>, 'key' | 'kind'>;

const bool = <K extends string>(key: K, dflt: boolean, extra: Extra = {}): OptionDef<K, 'bool'> => ({
  key,
  kind: 'bool',
  default: String(dflt),
  ...extra,
});
const int = <K extends string>(
  key: K,
  dflt: number,
  min: number,
  max: number,
  extra: Extra = {},
): OptionDef<K, 'int'> => ({
  key,
  kind: 'int',
  default: String(dflt),
  min,
  max,
  ...extra,
});
const float = <K extends string>(
  key: K,
  dflt: number,
  min: number,
  max: number,
  extra: Extra = {},
): OptionDef<K, 'float'> => ({
  key,
  kind: 'float',
  default: String(dflt),
  min,
  max,
  ...extra,
});
const str = <K extends string>(key: K, dflt = '', extra: Extra = {}): OptionDef<K, 'string'> => ({
  key,
  kind: 'string',
  default: dflt,
  maxLength: 1024,
  ...extra,
});
const text = <K extends string>(key: K, dflt = '', extra: Extra = {}): OptionDef<K, 'text'> => ({
  key,
  kind: 'text',
  default: dflt,
  maxLength: 1_000_000,
  ...extra,
});
const stripSlash = (s: string) => s.trim().replace(/\/+$/, '');
const url = <K extends string>(key: K, extra: Extra = {}): OptionDef<K, 'url'> => ({
  key,
  kind: 'url',
  default: '',
  maxLength: 2048,
  normalize: stripSlash,
  ...extra,
});
/** A JSON option; `T` (from the default's declared type) is what OptionService.json returns for it. */
const json = <K extends string, T>(
  key: K,
  dflt: T,
  check: OptionDef['check'],
  extra: Extra = {},
): OptionDef<K, 'json'> & { readonly value?: T } => ({
  key,
  kind: 'json',
  default: JSON.stringify(dflt),
  maxLength: 2_000_000,
  check,
  ...extra,
});

const problem = (reason: string): OptionProblem => ({
  key: 'field_invalid',
  params: { field: 'value', reason },
});

/** A JSON object whose values are finite numbers ≥ 0 (ratios, prices). */
const numberMap =
  (opts: { positive?: boolean } = {}) =>
  (v: unknown): OptionProblem | null => {
    if (!isPlainObject(v)) return problem('expected a JSON object of name → number');
    for (const [name, n] of Object.entries(v)) {
      if (typeof n !== 'number' || !Number.isFinite(n) || n < 0)
        return problem(`"${name}" must be a number ≥ 0`);
      if (opts.positive && n === 0) return { key: 'model_price_zero' };
      if (n > 1e9) return problem(`"${name}" is too large`);
    }
    return null;
  };

const stringMap = (v: unknown): OptionProblem | null => {
  if (!isPlainObject(v)) return problem('expected a JSON object of name → text');
  for (const [name, s] of Object.entries(v))
    if (typeof s !== 'string') return problem(`"${name}" must be text`);
  return null;
};

const stringList = (v: unknown): OptionProblem | null =>
  Array.isArray(v) && v.every((s) => typeof s === 'string') ? null : problem('expected a JSON list of names');

const affinityRules = (v: unknown): OptionProblem | null =>
  Array.isArray(v) &&
  v.every(
    (r) =>
      isPlainObject(r) &&
      (typeof r.header === 'string' || typeof r.json === 'string') &&
      ['model', 'format', 'mode', 'path', 'header', 'json'].every(
        (k) => r[k] === undefined || typeof r[k] === 'string',
      ),
  )
    ? null
    : problem(
        'expected a JSON list of rules like {"model": "^claude-", "header": "x-session"} or {"json": "metadata.session"}',
      );

const objectAny = (v: unknown): OptionProblem | null =>
  isPlainObject(v) ? null : problem('expected a JSON object');

const groupGroupRatio = (v: unknown): OptionProblem | null => {
  if (!isPlainObject(v)) return problem('expected {"user group": {"token group": ratio}}');
  for (const inner of Object.values(v)) {
    const p = numberMap()(inner);
    if (p) return p;
  }
  return null;
};

/** ModelRequestRateLimitGroup: {"group": [total count, successful count]}, 0 = unlimited. */
const rateLimitGroups = (v: unknown): OptionProblem | null => {
  if (!isPlainObject(v)) return problem('expected {"group": [total count, successful count]}');
  for (const [group, pair] of Object.entries(v)) {
    if (
      !Array.isArray(pair) ||
      pair.length !== 2 ||
      !pair.every((n) => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= 1e9)
    )
      return problem(`"${group}" must be [total count, successful count], whole numbers ≥ 0`);
  }
  return null;
};

const chats = (v: unknown): OptionProblem | null => {
  if (!Array.isArray(v)) return problem('expected a JSON list of {"name": "url"}');
  for (const item of v) {
    if (!isPlainObject(item)) return problem('each chat link must be {"name": "url"}');
    for (const link of Object.values(item))
      if (typeof link !== 'string') return problem('chat link URLs must be text');
  }
  return null;
};

const payMethods = (v: unknown): OptionProblem | null => {
  if (!Array.isArray(v)) return { key: 'pay_methods_not_json' };
  for (const m of v) {
    if (!isPlainObject(m) || typeof m.name !== 'string' || typeof m.type !== 'string')
      return problem('each pay method needs "name" and "type"');
  }
  return null;
};

const domainList = (_v: unknown, raw: string): OptionProblem | null => {
  const seen = new Set<string>();
  for (const d of raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(d))
      return { key: 'domain_invalid', params: { host: 'example.com' } };
    if (seen.has(d)) return { key: 'domain_duplicate' };
    seen.add(d);
  }
  return null;
};

const oneOf =
  (...allowed: string[]) =>
  (_v: unknown, raw: string): OptionProblem | null =>
    allowed.includes(raw) ? null : problem(`must be one of ${allowed.join(', ')}`);

const DEFAULT_KEYWORDS = [
  'Your credit balance is too low',
  'This organization has been disabled.',
  'You exceeded your current quota',
  'Permission denied',
  'The security token included in the request is invalid',
  'Operation not allowed',
  'Your account is not authorized',
].join('\n');

const ROOT = { rootOnly: true } as const;
const SECRET = { rootOnly: true, secret: true } as const;

/**
 * Every runtime setting: its key, kind, default, bounds and checks. The definition's default is the one
 * default; readers get the parsed value through OptionService, typed by the key's kind.
 */
export const OPTION_DEFINITIONS = [
  // access and sign-in
  bool('PasswordLoginEnabled', true),
  bool('PasswordRegisterEnabled', true),
  bool('EmailVerificationEnabled', false),
  bool('RegisterEnabled', true),
  bool('GitHubOAuthEnabled', false),
  bool('WeChatAuthEnabled', false),
  bool('TelegramOAuthEnabled', false),
  bool('LinuxDOOAuthEnabled', false),
  bool('oidc.enabled', false),
  bool('TurnstileCheckEnabled', false),
  bool('AdminTwoFactorRequired', false, ROOT), // admins must have TOTP or a passkey to use admin routes
  bool('EmailDomainRestrictionEnabled', false),
  bool('EmailAliasRestrictionEnabled', false),
  str(
    'EmailDomainWhitelist',
    'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com',
    {
      maxLength: 10000,
      check: domainList,
    },
  ),
  // mail (root only)
  str('SMTPServer', '', ROOT),
  int('SMTPPort', 587, 1, 65535, ROOT),
  str('SMTPAccount', '', ROOT),
  str('SMTPFrom', '', ROOT),
  str('SMTPToken', '', SECRET),
  bool('SMTPSSLEnabled', false, ROOT),
  // integration credentials (root only; secrets write-only)
  str('GitHubClientId', '', ROOT),
  str('GitHubClientSecret', '', SECRET),
  str('oidc.client_id', '', ROOT),
  str('oidc.client_secret', '', SECRET),
  url('oidc.well_known', {
    ...ROOT,
    check: (_v, raw) => (raw && !/^https?:\/\//i.test(raw) ? { key: 'well_known_invalid' } : null),
  }),
  url('oidc.authorization_endpoint', ROOT),
  url('oidc.token_endpoint', ROOT),
  url('oidc.user_info_endpoint', ROOT),
  str('LinuxDOClientId', '', ROOT),
  str('LinuxDOClientSecret', '', SECRET),
  int('LinuxDOMinimumTrustLevel', 0, 0, 4, ROOT),
  url('WeChatServerAddress', ROOT),
  str('WeChatServerToken', '', SECRET),
  url('WeChatAccountQRCodeImageURL', ROOT),
  str('TelegramBotToken', '', SECRET),
  str('TelegramBotName', '', ROOT),
  str('TurnstileSiteKey', '', ROOT),
  str('TurnstileSecretKey', '', SECRET),
  // server and payment (root only)
  url('ServerAddress', ROOT),
  // Channels may reach private, loopback and link-local addresses (a local Ollama); ALLOW_PRIVATE_OUTBOUND=true forces it on.
  bool('ChannelPrivateAddressesAllowed', false, ROOT),
  url('WorkerUrl', ROOT),
  str('WorkerValidKey', '', SECRET),
  url('PayAddress', ROOT),
  str('EpayId', '', ROOT),
  str('EpayKey', '', SECRET),
  url('CustomCallbackAddress', ROOT),
  float('Price', 7.3, 0, 1e6, ROOT),
  int('MinTopUp', 1, 0, 1e9, ROOT),
  json(
    'TopupGroupRatio',
    typed<NumberMap>({ default: 1, vip: 1, svip: 1 }),
    (v) => (numberMap()(v) ? { key: 'topup_ratio_not_json' } : null),
    ROOT,
  ),
  json(
    'PayMethods',
    typed<Array<Record<string, string>>>([
      { name: '支付宝', color: 'rgba(var(--semi-blue-5), 1)', type: 'zfb' },
      { name: '微信', color: 'rgba(var(--semi-green-5), 1)', type: 'wx' },
    ]),
    payMethods,
    ROOT,
  ),
  // site text
  text('Notice'),
  str('SystemName', 'Gatehouse', { maxLength: 128 }),
  // The language of API answers for callers that name neither Chinese nor English in Accept-Language.
  str('DefaultLanguage', 'zh', { check: oneOf('zh', 'en') }),
  text('Logo', '', { maxLength: 2_000_000 }),
  text('HomePageContent'),
  text('About'),
  text('Footer'),
  // display and general
  url('TopUpLink', ROOT),
  url('general_setting.docs_link'),
  float('QuotaPerUnit', 500000, 1, 1e12, ROOT),
  int('RetryTimes', 0, 0, 10),
  float('USDExchangeRate', 7.3, 0, 1e6),
  bool('DisplayInCurrencyEnabled', true),
  bool('DisplayTokenStatEnabled', true),
  bool('DefaultCollapseSidebar', false),
  bool('DemoSiteEnabled', false),
  bool('SelfUseModeEnabled', false),
  // drawing and tasks
  bool('DrawingEnabled', false),
  bool('TaskEnabled', true),
  bool('MjNotifyEnabled', false),
  bool('MjAccountFilterEnabled', false),
  bool('MjForwardUrlEnabled', true),
  bool('MjModeClearEnabled', false),
  bool('MjActionCheckSuccessEnabled', true),
  // moderation and logs
  bool('CheckSensitiveEnabled', false),
  bool('CheckSensitiveOnPromptEnabled', false),
  text('SensitiveWords', 'test_sensitive'),
  bool('LogConsumeEnabled', true),
  // content logs (opt-in per channel, token and user): bytes kept per direction, days kept, JSONPath
  // redactions (one per line), and whether users may read the content of their own log rows
  int('ContentLogMaxBytes', 65536, 1024, 16 * 1024 * 1024),
  int('ContentLogRetentionDays', 7, 1, 3650),
  text('ContentLogRedactPaths', '', {
    maxLength: 20_000,
    check: (_v, raw) => {
      for (const path of parsePaths(raw)) {
        const reason = pathProblem(path);
        if (reason) return { key: 'content_log_path_invalid', params: { reason } };
      }
      return null;
    },
  }),
  bool('ContentLogUserViewEnabled', false),
  // dashboard
  bool('DataExportEnabled', true),
  int('DataExportInterval', 5, 1, 1440),
  str('DataExportDefaultTime', 'hour', { check: oneOf('hour', 'day', 'week') }),
  // calendar periods of reports: an IANA time zone name, empty = the server's TZ
  str('TimeZone', '', {
    check: (_v, raw) =>
      !raw || isTimeZone(raw) ? null : problem('not a known time zone name, e.g. Asia/Shanghai'),
  }),
  // monitoring
  float('ChannelDisableThreshold', 5, 0, 1e6),
  int('QuotaRemindThreshold', 1000, 0, Number.MAX_SAFE_INTEGER),
  bool('AutomaticDisableChannelEnabled', false),
  bool('AutomaticEnableChannelEnabled', false),
  text('AutomaticDisableKeywords', DEFAULT_KEYWORDS),
  // minutes between automatic tests of every channel (master node); 0 = CHANNEL_TEST_FREQUENCY, off unless set
  int('ChannelTestFrequency', 0, 0, 10_080),
  // quota
  int('QuotaForNewUser', 0, 0, Number.MAX_SAFE_INTEGER),
  int('PreConsumedQuota', 500, 0, Number.MAX_SAFE_INTEGER),
  // completion tokens a budgeted call that names no max_tokens is held for (its budget bound)
  int('BudgetOutputTokens', 4096, 1, 10_000_000),
  int('QuotaForInviter', 0, 0, Number.MAX_SAFE_INTEGER),
  int('QuotaForInvitee', 0, 0, Number.MAX_SAFE_INTEGER),
  // pricing and groups
  json('ModelPrice', DEFAULT_MODEL_PRICE, numberMap({ positive: true })),
  json('ModelRatio', DEFAULT_MODEL_RATIO, numberMap()),
  json('CompletionRatio', DEFAULT_COMPLETION_RATIO, numberMap()),
  json('CacheRatio', DEFAULT_CACHE_RATIO, numberMap()),
  json('CacheCreationRatio', typed<NumberMap>({}), numberMap()),
  json('CacheCreation1hRatio', typed<NumberMap>({}), numberMap()),
  json('ImageRatio', typed<NumberMap>({}), numberMap()),
  json('AudioRatio', typed<NumberMap>({}), numberMap()),
  json('AudioCompletionRatio', typed<NumberMap>({}), numberMap()),
  json('GroupRatio', typed<NumberMap>({ default: 1, vip: 1, svip: 1 }), numberMap()),
  json('UserUsableGroups', typed<StringMap>({ default: '默认分组', vip: 'vip分组' }), stringMap),
  json('GroupGroupRatio', typed<Record<string, NumberMap>>({}), groupGroupRatio),
  json('AutoGroups', ['default'], stringList),
  // periodic budgets of groups: {"group": {"day": {"quota": n, "requests": n}, "week": ..., "month": ...}}
  json('GroupBudgets', typed<Record<string, unknown>>({}), groupBudgetsProblem),
  // a notice (webhook or email) when a token's or user's quota budget passes this percentage; 0 = off
  int('BudgetNoticePercent', 0, 0, 100),
  bool('DefaultUseAutoGroup', false),
  json('Chats', typed<Array<Record<string, string>>>([]), chats),
  // rate limits
  bool('ModelRequestRateLimitEnabled', false),
  int('ModelRequestRateLimitCount', 0, -1, 1e9),
  int('ModelRequestRateLimitSuccessCount', 1000, 1, 1e9),
  int('ModelRequestRateLimitDurationMinutes', 1, 0, 1440),
  json('ModelRequestRateLimitGroup', typed<Record<string, [number, number]>>({}), rateLimitGroups),
  int('StreamCacheQueueLength', 0, 0, 100000),
  // models tab
  json('gemini.safety_settings', typed<StringMap>({}), objectAny),
  json('gemini.version_settings', typed<StringMap>({ default: 'v1beta' }), stringMap),
  json(
    'gemini.supported_imagine_models',
    ['gemini-2.0-flash-exp-image-generation', 'gemini-2.0-flash-exp'],
    stringList,
  ),
  bool('gemini.thinking_adapter_enabled', false),
  float('gemini.thinking_adapter_budget_tokens_percentage', 0.6, 0.1, 1),
  json('claude.model_headers_settings', typed<Record<string, StringMap>>({}), objectAny),
  json('claude.default_max_tokens', typed<NumberMap>({ default: 8192 }), numberMap()),
  bool('claude.thinking_adapter_enabled', true),
  float('claude.thinking_adapter_budget_tokens_percentage', 0.8, 0.1, 1),
  bool('global.pass_through_request_enabled', false),
  // Client headers forwarded to an upstream of the client's own format (Claude Code's betas...).
  json('relay.forward_client_headers', ['anthropic-beta', 'openai-beta'], stringList),
  // `<model>-high` (and -minimal, -low, -medium, -xhigh) served by `<model>` with that reasoning effort.
  bool('relay.effort_suffixes_enabled', true),
  // OpenAI-format models that accept reasoning_effort (name prefixes); others get none from a conversion.
  json('relay.reasoning_models', ['o1', 'o3', 'o4', 'gpt-5', 'gpt-oss', 'codex'], stringList),
  // Channel affinity: an agent session keeps to its channel while the provider's prompt cache lasts.
  bool('channel_affinity.enabled', true),
  int('channel_affinity.ttl_seconds', 3600, 1, 7 * 86400),
  json('channel_affinity.headers', ['session_id', 'x-session-id'], stringList),
  json('channel_affinity.rules', typed<Array<Record<string, string>>>([]), affinityRules),
  // A timed-out attempt is not repeated on the same channel (only another channel is tried) unless this is on.
  bool('general_setting.retry_timeout_same_channel', false),
  bool('general_setting.ping_interval_enabled', false),
  int('general_setting.ping_interval_seconds', 60, 1, 3600),
] as const satisfies readonly OptionDef[];

type DefinedOption = (typeof OPTION_DEFINITIONS)[number];
/** Every option key. */
export type OptionKey = DefinedOption['key'];
/** The keys of options of the given kinds. */
export type OptionKeyOf<Kind extends OptionKind> = Extract<DefinedOption, { kind: Kind }>['key'];
export type BoolOptionKey = OptionKeyOf<'bool'>;
export type NumberOptionKey = OptionKeyOf<'int' | 'float'>;
export type TextOptionKey = OptionKeyOf<'string' | 'text' | 'url'>;
export type JsonOptionKey = OptionKeyOf<'json'>;
/** What a JSON option holds (its definition's declared type). */
export type JsonOptionValue<K extends JsonOptionKey> =
  Extract<DefinedOption, { key: K }> extends { readonly value?: infer T } ? T : never;

export const OPTION_INDEX: ReadonlyMap<string, OptionDef<OptionKey>> = new Map(
  OPTION_DEFINITIONS.map((d) => [d.key, d]),
);

/** Whether `key` names an option. */
export const isOptionKey = (key: string): key is OptionKey => OPTION_INDEX.has(key);

/** Keys the reset-model-ratio action restores to their built-in defaults. */
export const PRICE_KEYS = ['ModelPrice', 'ModelRatio', 'CompletionRatio', 'CacheRatio'] as const;

export function parseOptionValue(def: OptionDef, raw: string): unknown {
  switch (def.kind) {
    case 'bool':
      return raw === 'true';
    case 'int':
    case 'float': {
      const n = raw.trim() === '' ? NaN : Number(raw);
      return Number.isFinite(n) ? n : Number(def.default);
    }
    case 'json': {
      // A stored value the definition would refuse (not JSON, or the wrong shape) reads as the default,
      // so readers never need a fallback of their own.
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        return JSON.parse(def.default);
      }
      return value === null || def.check?.(value, raw) ? JSON.parse(def.default) : value;
    }
    default:
      return raw;
  }
}

/** Checks a value an admin submitted; returns the normalised string to store, or the problem. */
export function validateOptionValue(
  def: OptionDef,
  input: string,
): { value: string } | { problem: OptionProblem } {
  const raw = def.normalize ? def.normalize(input) : input;
  const invalid = (reason: string) => ({
    problem: { key: 'option_invalid' as const, params: { key: def.key, reason } },
  });
  if (def.maxLength !== undefined && raw.length > def.maxLength)
    return invalid(`longer than ${def.maxLength} characters`);
  let parsed: unknown = raw;
  switch (def.kind) {
    case 'bool':
      if (raw !== 'true' && raw !== 'false') return invalid('must be true or false');
      break;
    case 'int':
    case 'float': {
      const pattern = def.kind === 'int' ? /^-?\d+$/ : /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
      if (!pattern.test(raw.trim()))
        return invalid(def.kind === 'int' ? 'must be a whole number' : 'must be a number');
      const n = Number(raw);
      if (!Number.isFinite(n)) return invalid('must be a number');
      if (def.min !== undefined && n < def.min) return invalid(`must be at least ${def.min}`);
      if (def.max !== undefined && n > def.max) return invalid(`must be at most ${def.max}`);
      parsed = n;
      return finish(def, String(n), parsed);
    }
    case 'url': {
      // A key's own check speaks first (it carries the spec's message, e.g. for the Well-Known URL).
      const own = raw ? def.check?.(raw, raw) : null;
      if (own) return { problem: own };
      if (raw && !isHttpUrl(raw)) return invalid('must be an http(s) URL');
      return { value: raw };
    }
    case 'json':
      try {
        parsed = JSON.parse(raw);
      } catch {
        if (def.key === 'TopupGroupRatio') return { problem: { key: 'topup_ratio_not_json' } };
        if (def.key === 'PayMethods') return { problem: { key: 'pay_methods_not_json' } };
        return { problem: { key: 'option_not_json', params: { key: def.key } } };
      }
      break;
  }
  return finish(def, raw, parsed);
}

function finish(
  def: OptionDef,
  raw: string,
  parsed: unknown,
): { value: string } | { problem: OptionProblem } {
  const p = def.check?.(parsed, raw);
  if (p) {
    if (p.key === 'field_invalid') {
      return { problem: { key: 'option_invalid', params: { key: def.key, reason: p.params?.reason } } };
    }
    return { problem: p };
  }
  return { value: raw };
}

export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}
