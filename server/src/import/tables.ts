import { CryptoService } from '../common/crypto.service';
import {
  Channel,
  ChannelStatus,
  LogEntry,
  Midjourney,
  QuotaData,
  Redemption,
  Role,
  Task,
  Token,
  TopUp,
  User,
  UserStatus,
} from '../database/entities';
import { CHANNEL_TYPES } from '../modules/channel';
import { splitList } from '../common/lists';
import { keyHint, TokenService } from '../modules/token';
import type { Row, SourceFlavor } from './source';
import { isBlank, toBigInt, toText, toUnixSeconds } from './values';

/** Which opt-in group a table belongs to (`--with logs,tasks,dashboard`); core tables always come. */
export type TableGroup = 'core' | 'logs' | 'tasks' | 'dashboard';

/** What a row mapping can do besides filling columns. */
export interface RowCtx {
  id: number;
  change(message: string): void;
  reject(reason: string): void;
  /** Records a quota value that could not be kept exactly (source minus target). */
  adjust(delta: bigint): void;
  readonly now: number;
}

/** State shared by the mappings of one run: services of the product and what was imported so far. */
export interface MapState {
  crypto: CryptoService;
  tokens: TokenService;
  /** Ids of users now in the target through this import (this run or an earlier one). */
  users: Set<number>;
  /** Values of unique columns already taken in the target, by column (lower-cased where collation ignores case). */
  taken: Map<string, Set<string>>;
  flavor: SourceFlavor;
}

export interface TableSpec {
  /** Table name, the same in the source and here. */
  name: string;
  entity: new () => object;
  group: TableGroup;
  /** Column summed in the reconciliation (same name in the source). */
  quota?: string;
  /** Source column → our column, where the names differ. */
  rename?: Record<string, string>;
  /** Our columns the mapping fills itself (not copied by name). */
  computed?: string[];
  /** Source columns the mapping reads itself. */
  consumed?: string[];
  /** Source columns deliberately not carried over, with the reason. */
  dropped?: Record<string, string>;
  map?: (src: Row, out: Record<string, unknown>, r: RowCtx, s: MapState) => void;
}

export const uniqueKey = (column: string, value: string): string => `${column}\u0000${value.toLowerCase()}`;

/** Marks a unique value as taken; false when it already was. */
export function claim(s: MapState, column: string, value: string): boolean {
  const set = s.taken.get(column) ?? new Set<string>();
  s.taken.set(column, set);
  const k = value.toLowerCase();
  if (set.has(k)) return false;
  set.add(k);
  return true;
}

const BCRYPT = /^\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}$/;
const ROLES = new Set<number>([Role.Guest, Role.User, Role.Admin, Role.Root]);
/** one-api marks deleted users with status 3 instead of deleting the row. */
const ONE_API_USER_DELETED = 3;
const IDENTITY_COLUMNS = ['email', 'github_id', 'oidc_id', 'wechat_id', 'telegram_id', 'linux_do_id'];

/** A Go soft-delete time (gorm.DeletedAt) as our unix-seconds deleted_at. */
function deletedAt(src: Row, out: Record<string, unknown>): void {
  out.deleted_at = isBlank(src.deleted_at) ? null : toUnixSeconds(src.deleted_at);
}

function mapUser(src: Row, out: Record<string, unknown>, r: RowCtx, s: MapState): void {
  const username = (toText(out.username) ?? '').trim();
  if (!username) return r.reject('no username');
  if (!claim(s, 'username', username)) return r.reject('username already taken in the target');
  const password = toText(src.password) ?? '';
  if (password && !BCRYPT.test(password)) {
    r.change('password is not a bcrypt hash: cleared, the user signs in another way or resets it');
    out.password = '';
  }
  if (!ROLES.has(Number(out.role))) {
    r.change('unknown role: made an ordinary user');
    out.role = Role.User;
  }
  deletedAt(src, out);
  const status = Number(out.status);
  if (status === ONE_API_USER_DELETED) {
    out.status = UserStatus.Disabled;
    out.deleted_at = out.deleted_at ?? r.now;
    r.change('status 3 (deleted): kept as a deleted (deregistered) user');
  } else if (status !== UserStatus.Enabled && status !== UserStatus.Disabled) {
    r.change('unknown status: disabled');
    out.status = UserStatus.Disabled;
  }
  for (const col of IDENTITY_COLUMNS) {
    const v = out[col];
    if (isBlank(v)) out[col] = null;
    else if (!claim(s, col, String(v))) {
      r.change(`${col} already used by another user: cleared`);
      out[col] = null;
    }
  }
  const access = toText(src.access_token)?.trim();
  out.access_token_hash = null;
  if (access) {
    const hash = s.crypto.keyedHash(access);
    if (claim(s, 'access_token_hash', hash)) out.access_token_hash = hash;
    else r.change('access token already used by another user: cleared');
  }
  const aff = (toText(out.aff_code) ?? '').trim();
  if (!aff || !claim(s, 'aff_code', aff)) {
    let code: string;
    do code = CryptoService.randomString(8);
    while (!claim(s, 'aff_code', code));
    if (aff) r.change('affiliate code already used by another user: a new one was made');
    out.aff_code = code;
  }
  if (isBlank(out.group)) out.group = 'default';
  if (!src.created_at) out.created_at = r.now;
}

function mapToken(src: Row, out: Record<string, unknown>, r: RowCtx, s: MapState): void {
  const userId = Number(out.user_id);
  if (!s.users.has(userId)) return r.reject(`its user was not imported`);
  const raw = (toText(src.key) ?? '').trim();
  if (!raw) return r.reject('no key');
  const bare = raw.startsWith('sk-') ? raw.slice(3) : raw;
  const hash = s.tokens.hashKey(bare);
  if (!claim(s, 'key_hash', hash)) return r.reject('the same key as another token');
  out.key_hash = hash;
  out.key_enc = s.crypto.encrypt(bare);
  out.key_hint = keyHint(bare);
  // one-api: `models` (a comma list of allowed models) and `subnet` (comma-separated allowed networks).
  const models = toText(src.models)?.trim();
  if (models && isBlank(src.model_limits)) {
    out.model_limits = splitList(models).join(',');
    out.model_limits_enabled = true;
  }
  const subnet = toText(src.subnet)?.trim();
  if (subnet && isBlank(src.allow_ips)) out.allow_ips = splitList(subnet).join('\n');
  if (typeof out.allow_ips === 'string' && out.allow_ips.includes(','))
    out.allow_ips = splitList(out.allow_ips.replace(/\n/g, ',')).join('\n');
  if (![1, 2, 3, 4].includes(Number(out.status))) {
    r.change('unknown status: disabled');
    out.status = 2;
  }
  deletedAt(src, out);
}

function parseJsonObject(v: unknown): Record<string, unknown> | null {
  const t = toText(v)?.trim();
  if (!t) return {};
  try {
    const parsed: unknown = JSON.parse(t);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The OpenAI-compatible channel type, for providers that have no adapter of their own here. */
const CUSTOM_TYPE = 8;

/**
 * one-api numbers channel types its own way from 26 on (and for a few early OpenAI resellers): its
 * type → ours, with the base URL its type implied when the channel has none.
 */
const ONE_API_TYPES: Record<number, { type: number; name: string; baseUrl?: string }> = {
  2: { type: CUSTOM_TYPE, name: 'API2D', baseUrl: 'https://oa.api2d.net' },
  4: { type: CUSTOM_TYPE, name: 'CloseAI', baseUrl: 'https://api.closeai-proxy.xyz' },
  5: { type: CUSTOM_TYPE, name: 'OpenAI-SB', baseUrl: 'https://api.openai-sb.com' },
  26: { type: CUSTOM_TYPE, name: 'Baichuan', baseUrl: 'https://api.baichuan-ai.com' },
  27: { type: 35, name: 'MiniMax' },
  28: { type: 42, name: 'Mistral' },
  29: { type: CUSTOM_TYPE, name: 'Groq', baseUrl: 'https://api.groq.com/openai' },
  30: { type: 4, name: 'Ollama' },
  32: { type: CUSTOM_TYPE, name: 'StepFun', baseUrl: 'https://api.stepfun.com' },
  35: { type: 34, name: 'Cohere' },
  36: { type: 43, name: 'DeepSeek' },
  37: { type: 39, name: 'Cloudflare' },
  39: { type: CUSTOM_TYPE, name: 'Together AI', baseUrl: 'https://api.together.xyz' },
  40: { type: 45, name: 'Doubao' },
  42: { type: 41, name: 'Vertex AI' },
  44: { type: 40, name: 'SiliconFlow' },
  45: { type: 48, name: 'xAI' },
  47: { type: 46, name: 'Baidu v2' },
  48: { type: CUSTOM_TYPE, name: 'iFlytek Spark v2', baseUrl: 'https://spark-api-open.xf-yun.com' },
  49: {
    type: CUSTOM_TYPE,
    name: 'Alibaba Bailian',
    baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode',
  },
  50: { type: CUSTOM_TYPE, name: 'OpenAI-compatible' },
};
/** one-api types with no adapter here (Coze, DeepL, Novita, Proxy, Replicate...). */
const ONE_API_UNSUPPORTED: Record<number, string> = {
  34: 'Coze',
  38: 'DeepL',
  41: 'Novita',
  43: 'Proxy',
  46: 'Replicate',
  51: 'Gemini (OpenAI-compatible)',
};

function mapChannelType(out: Record<string, unknown>, r: RowCtx, s: MapState): void {
  const type = Number(out.type);
  if (s.flavor === 'one-api' && ONE_API_TYPES[type]) {
    const to = ONE_API_TYPES[type];
    out.type = to.type;
    if (to.baseUrl && isBlank(out.base_url)) out.base_url = to.baseUrl;
    r.change(`one-api type ${type} (${to.name}) is type ${to.type} (${CHANNEL_TYPES[to.type].name}) here`);
    return;
  }
  const unsupported = s.flavor === 'one-api' ? ONE_API_UNSUPPORTED[type] : undefined;
  if (unsupported || !CHANNEL_TYPES[type]) {
    out.type = CUSTOM_TYPE;
    out.status = ChannelStatus.ManuallyDisabled;
    r.change(
      `type ${type}${unsupported ? ` (${unsupported})` : ''} has no adapter here: imported as a disabled OpenAI-compatible channel`,
    );
  }
}

function mapChannel(src: Row, out: Record<string, unknown>, r: RowCtx, s: MapState): void {
  out.key = s.crypto.encrypt((toText(src.key) ?? '').trim());
  mapChannelType(out, r, s);
  if (
    ![ChannelStatus.Enabled, ChannelStatus.ManuallyDisabled, ChannelStatus.AutoDisabled].includes(
      Number(out.status) as 1,
    )
  ) {
    r.change('unknown status: disabled by hand');
    out.status = ChannelStatus.ManuallyDisabled;
  }
  for (const col of ['model_mapping', 'status_code_mapping', 'param_override']) {
    if (isBlank(out[col])) out[col] = null;
    else if (parseJsonObject(out[col]) === null) {
      r.change(`${col} is not a JSON object: cleared`);
      out[col] = null;
    }
  }
  const setting = parseJsonObject(src.setting);
  if (setting === null) r.change('setting is not a JSON object: cleared');
  const merged: Record<string, unknown> = { ...(setting ?? {}) };
  const other = parseJsonObject(src.settings);
  if (other && Object.keys(other).length) {
    for (const [k, v] of Object.entries(other)) if (!(k in merged)) merged[k] = v;
    r.change('settings (other settings) merged into setting');
  }
  const headers = parseJsonObject(src.header_override);
  if (headers && Object.keys(headers).length) merged.header_override = headers;
  else if (headers === null) r.change('header_override is not a JSON object: cleared');
  const prompt = toText(src.system_prompt)?.trim();
  if (prompt && !merged.system_prompt) {
    merged.system_prompt = prompt;
    r.change('system_prompt moved into setting.system_prompt');
  }
  // one-api keeps per-type extras in `config`; only the API version has a place here (`other`).
  const config = parseJsonObject(src.config);
  if (config && Object.keys(config).length) {
    const { api_version: apiVersion, ...rest } = config;
    if (typeof apiVersion === 'string' && apiVersion && isBlank(out.other)) out.other = apiVersion;
    const left = Object.entries(rest).filter(([, v]) => !isBlank(v) && v !== 0 && v !== false);
    if (left.length)
      r.change(`config keys without a counterpart not carried over (${left.map(([k]) => k).join(', ')})`);
  }
  out.setting = Object.keys(merged).length ? JSON.stringify(merged) : null;
  const info = parseJsonObject(src.channel_info);
  if (info && (info.is_multi_key === true || info.is_multi_key === 1)) {
    const statuses = info.multi_key_status_list;
    if (statuses && typeof statuses === 'object' && Object.keys(statuses).length)
      r.change('multi-key: per-key disabled states not carried over, every key is used');
  }
  if (src.auto_ban === null || src.auto_ban === undefined) out.auto_ban = 1;
  // The routing index keeps groups up to 64 and models up to 191 characters.
  const groups = splitList(toText(out.group));
  const okGroups = groups.filter((g) => [...g].length <= 64);
  if (okGroups.length !== groups.length) r.change('group names longer than 64 characters dropped');
  out.group = okGroups.length ? okGroups.join(',') : 'default';
  const models = splitList(toText(out.models));
  const okModels = models.filter((m) => [...m].length <= 191);
  if (okModels.length !== models.length) r.change('model names longer than 191 characters dropped');
  out.models = okModels.join(',');
}

function mapRedemption(src: Row, out: Record<string, unknown>, r: RowCtx, s: MapState): void {
  const key = (toText(out.key) ?? '').trim();
  if (!key) return r.reject('no key');
  if (!claim(s, 'redemption_key', key)) return r.reject('the same code as another redemption');
  if (![1, 2, 3].includes(Number(out.status))) {
    r.change('unknown status: disabled');
    out.status = 2;
  }
  deletedAt(src, out);
}

function mapTopUp(src: Row, out: Record<string, unknown>, r: RowCtx, s: MapState): void {
  if (!s.users.has(Number(out.user_id))) return r.reject('its user was not imported');
  const tradeNo = (toText(src.trade_no) ?? '').trim();
  if (!tradeNo) return r.reject('no trade number');
  if ([...tradeNo].length > 64) return r.reject('trade number longer than 64 characters');
  if (!claim(s, 'trade_no', tradeNo)) return r.reject('the same trade number as another top-up');
  out.trade_no = tradeNo;
}

function mapLog(src: Row, out: Record<string, unknown>): void {
  // one-api measures `elapsed_time` in milliseconds; ours (`use_time`) is in seconds.
  if (isBlank(src.use_time) && !isBlank(src.elapsed_time))
    out.use_time = Math.round(Number(toBigInt(src.elapsed_time) ?? 0n) / 1000);
}

function mapMidjourney(src: Row, out: Record<string, unknown>, r: RowCtx): void {
  if (isBlank(src.created_at)) out.created_at = toUnixSeconds(src.submit_time) ?? r.now;
}

export const TABLES: TableSpec[] = [
  {
    name: 'users',
    entity: User,
    group: 'core',
    quota: 'quota',
    rename: { aff_history: 'aff_history_quota' },
    computed: ['access_token_hash', 'deleted_at'],
    consumed: ['access_token', 'deleted_at', 'password'],
    dropped: {
      lark_id: 'Lark sign-in is not offered here',
      discord_id: 'Discord sign-in is not offered here',
      remark: 'admin remarks on users are not kept here',
      stripe_customer: 'Stripe is not a payment method here',
      verification_code: 'transient',
    },
    map: mapUser,
  },
  {
    name: 'tokens',
    entity: Token,
    group: 'core',
    quota: 'remain_quota',
    computed: ['key_hash', 'key_enc', 'key_hint', 'deleted_at'],
    consumed: ['key', 'models', 'subnet', 'deleted_at'],
    dropped: { cross_group_retry: 'not offered here' },
    map: mapToken,
  },
  {
    name: 'channels',
    entity: Channel,
    group: 'core',
    quota: 'used_quota',
    computed: ['key', 'setting'],
    consumed: ['key', 'setting', 'settings', 'header_override', 'system_prompt', 'config', 'channel_info'],
    dropped: { remark: 'admin remarks on channels are not kept here' },
    map: mapChannel,
  },
  {
    name: 'redemptions',
    entity: Redemption,
    group: 'core',
    quota: 'quota',
    computed: ['deleted_at'],
    consumed: ['deleted_at'],
    map: mapRedemption,
  },
  {
    name: 'top_ups',
    entity: TopUp,
    group: 'core',
    quota: 'amount',
    computed: ['trade_no'],
    consumed: ['trade_no'],
    map: mapTopUp,
  },
  {
    name: 'logs',
    entity: LogEntry,
    group: 'logs',
    quota: 'quota',
    consumed: ['elapsed_time'],
    dropped: { system_prompt_reset: 'not recorded here' },
    map: mapLog,
  },
  {
    name: 'midjourneys',
    entity: Midjourney,
    group: 'tasks',
    quota: 'quota',
    consumed: ['submit_time'],
    map: mapMidjourney,
  },
  { name: 'tasks', entity: Task, group: 'tasks', quota: 'quota' },
  { name: 'quota_data', entity: QuotaData, group: 'dashboard', quota: 'quota' },
];
