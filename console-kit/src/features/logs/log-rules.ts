import dayjs from 'dayjs';
import type { Page, Schemas } from '../../api/wire';

export {
  defaultLogRange,
  emptyLogFilters,
  isValidChannelFilter,
  logQueryParams,
  type LogFilters,
} from '../../lib/log-filters';

/**
 * A usage log row as `GET /api/log/self/` returns it (docs/api-logs.md); the admin list (`GET /api/log/`)
 * adds the channel and the node.
 */
export type LogEntry = Schemas['LogView'] &
  Partial<Pick<Schemas['AdminLogView'], 'channel' | 'channel_name' | 'node_name'>>;

export type LogPage = Page<LogEntry>;

export type LogStat = Schemas['LogStat'];

export const LOG_TYPES = [0, 1, 2, 3, 4, 5] as const;
export const LOG_TYPE_KEYS: Record<number, string> = {
  0: 'all',
  1: 'topup',
  2: 'consume',
  3: 'manage',
  4: 'system',
  5: 'error',
};

export function logTypeKey(type: number): string {
  return type > 0 && LOG_TYPE_KEYS[type] ? LOG_TYPE_KEYS[type] : 'unknown';
}

export const LOG_TYPE_COLORS: Record<
  string,
  'success' | 'info' | 'warning' | 'secondary' | 'error' | 'default'
> = {
  topup: 'success',
  consume: 'info',
  manage: 'warning',
  system: 'secondary',
  error: 'error',
  unknown: 'default',
};

/** docs/decisions.md#log-colours: use time under 101 s green, under 300 s orange, else red. */
export function timeSpentColor(seconds: number): 'success' | 'warning' | 'error' {
  if (seconds < 101) {
    return 'success';
  }
  return seconds < 300 ? 'warning' : 'error';
}

/** docs/decisions.md#log-colours: first-token time (ms in `other.frt`) under 3 s green, under 10 s orange, else red. */
export function firstTokenColor(ms: number): 'success' | 'warning' | 'error' {
  if (ms < 3000) {
    return 'success';
  }
  return ms < 10000 ? 'warning' : 'error';
}

export type LogOther = Record<string, unknown>;

/** `other` is JSON text; anything unreadable (or not an object) is treated as empty. */
export function parseOther(raw: string | null | undefined): LogOther {
  if (!raw) {
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as LogOther) : {};
  } catch {
    return {};
  }
}

/** The `other` keys the details panel knows by name, in display order (docs/decisions.md#console-extras: every key). */
export const KNOWN_OTHER_KEYS = [
  'group',
  'model_ratio',
  'model_price',
  'completion_ratio',
  'group_ratio',
  'user_group_ratio',
  'cache_tokens',
  'cache_ratio',
  'cache_creation_tokens',
  'cache_creation_ratio',
  'reasoning_tokens',
  'reasoning_effort',
  'is_model_mapped',
  'upstream_model_name',
  'frt',
  'claude',
  'ws',
  'audio',
  'audio_ratio',
  'audio_completion_ratio',
  'audio_input',
  'audio_output',
  'text_input',
  'text_output',
  'image',
  'image_ratio',
  'client_type',
  'status_code',
  'response_id',
  'content_logged',
  'admin_info',
] as const;

export type KnownOtherKey = (typeof KNOWN_OTHER_KEYS)[number];

/** One line of the details panel: a translation key (or the raw key for unknown ones) and a value. */
export interface OtherDetail {
  key: string;
  known: boolean;
  value: string;
}

function plain(value: unknown): string {
  if (value === null || value === undefined) {
    return '';
  }
  if (typeof value === 'boolean') {
    return value ? 'true' : 'false';
  }
  if (typeof value === 'number' || typeof value === 'string') {
    return String(value);
  }
  return JSON.stringify(value);
}

/**
 * Every key of `other` as a detail line: known keys first in the order above (values formatted:
 * channels tried joined with →, model_price −1 means "billed by tokens", a negative
 * user_group_ratio means "none set"), then every unknown key as
 * given, so nothing the server recorded is hidden.
 */
export function otherDetails(other: LogOther): OtherDetail[] {
  const lines: OtherDetail[] = [];
  for (const key of KNOWN_OTHER_KEYS) {
    if (!(key in other)) {
      continue;
    }
    const value = other[key];
    if (key === 'admin_info') {
      const info = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
      const used = Array.isArray(info.use_channel) ? info.use_channel.map(plain) : [];
      if (used.length > 0) {
        lines.push({ key: 'use_channel', known: true, value: used.join(' → ') });
      }
      for (const [extra, extraValue] of Object.entries(info)) {
        if (extra !== 'use_channel') {
          lines.push({ key: `admin_info.${extra}`, known: false, value: plain(extraValue) });
        }
      }
      continue;
    }
    if (key === 'model_price' && typeof value === 'number' && value < 0) {
      lines.push({ key, known: true, value: 'byTokens' });
      continue;
    }
    if (key === 'user_group_ratio' && typeof value === 'number' && value < 0) {
      lines.push({ key, known: true, value: 'unset' });
      continue;
    }
    lines.push({ key, known: true, value: plain(value) });
  }
  for (const [key, value] of Object.entries(other)) {
    if (!(KNOWN_OTHER_KEYS as readonly string[]).includes(key)) {
      lines.push({ key, known: false, value: plain(value) });
    }
  }
  return lines;
}

/** Columns of the usage log table; the admin-only ones are never shown to users. */
export const LOG_COLUMNS = [
  'time',
  'channel',
  'username',
  'token',
  'group',
  'type',
  'model',
  'useTime',
  'prompt',
  'completion',
  'quota',
  'retry',
  'details',
] as const;
export type LogColumn = (typeof LOG_COLUMNS)[number];
export const ADMIN_LOG_COLUMNS: ReadonlySet<LogColumn> = new Set(['channel', 'username', 'retry']);
export const LOG_COLUMNS_STORAGE_KEY = 'logs-table-columns';

export function defaultLogColumns(): Record<LogColumn, boolean> {
  return Object.fromEntries(LOG_COLUMNS.map((column) => [column, true])) as Record<LogColumn, boolean>;
}

/** The stored column choice, with unknown or malformed values falling back to visible. */
export function parseLogColumns(raw: string | null): Record<LogColumn, boolean> {
  const columns = defaultLogColumns();
  if (!raw) {
    return columns;
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object') {
      for (const column of LOG_COLUMNS) {
        const value = (parsed as Record<string, unknown>)[column];
        if (typeof value === 'boolean') {
          columns[column] = value;
        }
      }
    }
  } catch {
    // keep the defaults
  }
  return columns;
}

/** The channels tried after the first one ("retry" column): the use_channel list when longer than 1. */
export function retryChain(other: LogOther): number[] {
  const info = other.admin_info;
  if (!info || typeof info !== 'object') {
    return [];
  }
  const used = (info as Record<string, unknown>).use_channel;
  if (!Array.isArray(used) || used.length < 2) {
    return [];
  }
  return used.filter((value): value is number => typeof value === 'number');
}

export function formatLogTime(seconds: number): string {
  return dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss');
}

/** The billing line of a consume log: a translation key under `billing.` and its values. */
export interface BillingLine {
  key: 'perCall' | 'byTokens' | 'byTokensCached';
  params: Record<string, string | number>;
}

const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const short = (value: number) => String(Number(value.toFixed(6)));

/**
 * How a consumption was billed, in words people read: the price per call, or the input and output
 * prices per million tokens, times the group ratio, equals the charge. Ratios whose model was billed
 * per call are left out (they are 0 or irrelevant). Null when the row carries no price figures.
 */
export function billingLine(
  entry: Pick<LogEntry, 'type' | 'quota' | 'prompt_tokens' | 'completion_tokens'>,
  other: LogOther,
  quotaPerUnit: number,
  formatCost: (quota: number) => string,
): BillingLine | null {
  if (entry.type !== 2) {
    return null;
  }
  const userGroupRatio = num(other.user_group_ratio);
  const group =
    userGroupRatio !== null && userGroupRatio >= 0 ? userGroupRatio : (num(other.group_ratio) ?? 1);
  const cost = formatCost(entry.quota);
  const price = num(other.model_price);
  if (price !== null && price >= 0) {
    return { key: 'perCall', params: { price: short(price), group: short(group), cost } };
  }
  const ratio = num(other.model_ratio);
  if (ratio === null || !(quotaPerUnit > 0)) {
    return null;
  }
  const input = (ratio * 1_000_000) / quotaPerUnit;
  const output = input * (num(other.completion_ratio) ?? 1);
  const params = {
    prompt: entry.prompt_tokens,
    completion: entry.completion_tokens,
    inputPrice: short(input),
    outputPrice: short(output),
    group: short(group),
    cost,
  };
  const cached = num(other.cache_tokens);
  if (cached !== null && cached > 0) {
    return {
      key: 'byTokensCached',
      params: { ...params, cached, cacheRatio: short(num(other.cache_ratio) ?? 1) },
    };
  }
  return { key: 'byTokens', params };
}

/** Keys of `other` that say nothing about a call billed per call. */
export const PER_CALL_HIDDEN_KEYS: ReadonlySet<string> = new Set([
  'model_ratio',
  'completion_ratio',
  'cache_ratio',
]);
