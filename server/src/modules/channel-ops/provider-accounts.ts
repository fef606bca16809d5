/**
 * What the gateway can ask a provider about an account, per channel type: the balance (where the
 * provider has a balance endpoint) and the list of models (OpenAI-compatible `/models`, Anthropic,
 * Gemini, Ollama). Pure: each function plans the requests and reads the answers; the caller sends them.
 */
import { apiRoot, versionPrefix } from '../relay';

export interface AccountRequest {
  url: string;
  headers: Record<string, string>;
}

import { asObject } from '../../common/json';

const asNumber = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) ? n : null;
};

/** The first line of a channel key (a multi-line key holds several keys; one is enough to ask). */
export function firstKey(key: string): string {
  return (
    key
      .split(/\r?\n/)
      .map((k) => k.trim())
      .find((k) => k !== '') ?? ''
  );
}

const bearer = (key: string): Record<string, string> => ({
  authorization: `Bearer ${key}`,
  accept: 'application/json',
});

// ---------------------------------------------------------------------------------------------------
// Balances

export class UnsupportedError extends Error {}
export class UnexpectedAnswerError extends Error {}

/** How to read one provider's balance: the requests in order and how to combine their answers. */
export interface BalancePlan {
  requests: AccountRequest[];
  /** The balance from the answers (parsed JSON, same order); throws UnexpectedAnswerError. */
  read(answers: unknown[]): number;
}

const OPENAI_STYLE = new Set([1, 8]);
const OPENROUTER = 20;
const MOONSHOT = 25;
const SILICONFLOW = 40;
const DEEPSEEK = 43;

const day = (d: Date): string => d.toISOString().slice(0, 10);

/** The balance plan of a channel type, or UnsupportedError for providers without a balance endpoint. */
export function balancePlan(type: number, baseUrl: string, key: string, now = new Date()): BalancePlan {
  const base = baseUrl.replace(/\/+$/, '');
  const headers = bearer(firstKey(key));
  const fail = (what: string): never => {
    throw new UnexpectedAnswerError(what);
  };
  if (OPENAI_STYLE.has(type)) {
    // Credit grants: the hard limit of the subscription minus this period's usage (in cents).
    const root = apiRoot(base, '/v1');
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    return {
      requests: [
        { url: `${root}/dashboard/billing/subscription`, headers },
        { url: `${root}/dashboard/billing/usage?start_date=${day(start)}&end_date=${day(now)}`, headers },
      ],
      read: ([subscription, usage]) => {
        const limit = asNumber(asObject(subscription).hard_limit_usd) ?? fail('hard_limit_usd');
        const used = asNumber(asObject(usage).total_usage) ?? fail('total_usage');
        return limit - used / 100;
      },
    };
  }
  if (type === OPENROUTER) {
    return {
      requests: [{ url: `${apiRoot(base, '/v1')}/credits`, headers }],
      read: ([a]) => {
        const data = asObject(asObject(a).data);
        return (
          (asNumber(data.total_credits) ?? fail('total_credits')) -
          (asNumber(data.total_usage) ?? fail('total_usage'))
        );
      },
    };
  }
  if (type === SILICONFLOW) {
    return {
      requests: [{ url: `${apiRoot(base, '/v1')}/user/info`, headers }],
      read: ([a]) => asNumber(asObject(asObject(a).data).totalBalance) ?? fail('totalBalance'),
    };
  }
  if (type === DEEPSEEK) {
    return {
      requests: [{ url: `${base}/user/balance`, headers }],
      read: ([a]) => {
        const infos = asObject(a).balance_infos;
        if (!Array.isArray(infos) || infos.length === 0) return fail('balance_infos');
        const pick = infos.map(asObject).find((i) => i.currency === 'CNY') ?? asObject(infos[0]);
        return asNumber(pick.total_balance) ?? fail('total_balance');
      },
    };
  }
  if (type === MOONSHOT) {
    return {
      requests: [{ url: `${apiRoot(base, '/v1')}/users/me/balance`, headers }],
      read: ([a]) => asNumber(asObject(asObject(a).data).available_balance) ?? fail('available_balance'),
    };
  }
  throw new UnsupportedError(String(type));
}

/** Channel types whose balance can be asked for. */
export const BALANCE_TYPES: ReadonlySet<number> = new Set([
  ...OPENAI_STYLE,
  OPENROUTER,
  SILICONFLOW,
  DEEPSEEK,
  MOONSHOT,
]);

// ---------------------------------------------------------------------------------------------------
// Model lists

const ANTHROPIC = 14;
const GEMINI = 24;
const OLLAMA = 4;

/** Types that speak the OpenAI API (reference data), where `GET {root}/models` lists the models. */
const OPENAI_COMPATIBLE = new Set([
  1, 6, 7, 8, 9, 10, 12, 13, 17, 19, 20, 21, 22, 25, 26, 27, 31, 35, 40, 42, 43, 45, 46, 47, 48,
]);

export interface ModelListPlan {
  /** The first page's request. */
  first: AccountRequest;
  /** Model ids on a page, and the request of the next page (if any). */
  read(answer: unknown): { ids: string[]; next: AccountRequest | null };
}

const ids = (list: unknown, field: string, strip = ''): string[] =>
  Array.isArray(list)
    ? list
        .map((m) => asObject(m)[field])
        .filter((v): v is string => typeof v === 'string' && v !== '')
        .map((v) => (strip && v.startsWith(strip) ? v.slice(strip.length) : v))
    : [];

/** The model-list plan of a channel type, or UnsupportedError. */
export function modelListPlan(type: number, baseUrl: string, key: string): ModelListPlan {
  const base = baseUrl.replace(/\/+$/, '');
  const k = firstKey(key);
  if (type === ANTHROPIC) {
    const headers = { 'x-api-key': k, 'anthropic-version': '2023-06-01', accept: 'application/json' };
    const page = (after?: string): AccountRequest => ({
      url: `${apiRoot(base, '/v1')}/models?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}`,
      headers,
    });
    return {
      first: page(),
      read: (a) => {
        const o = asObject(a);
        const found = ids(o.data, 'id');
        const last = typeof o.last_id === 'string' ? o.last_id : found.at(-1);
        return { ids: found, next: o.has_more === true && last ? page(last) : null };
      },
    };
  }
  if (type === GEMINI) {
    const headers = { 'x-goog-api-key': k, accept: 'application/json' };
    const page = (token?: string): AccountRequest => ({
      url: `${base}/v1beta/models?pageSize=1000${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`,
      headers,
    });
    return {
      first: page(),
      read: (a) => {
        const o = asObject(a);
        const token = typeof o.nextPageToken === 'string' && o.nextPageToken !== '' ? o.nextPageToken : null;
        return { ids: ids(o.models, 'name', 'models/'), next: token ? page(token) : null };
      },
    };
  }
  if (type === OLLAMA) {
    return {
      first: { url: `${base}/api/tags`, headers: { accept: 'application/json' } },
      read: (a) => ({ ids: ids(asObject(a).models, 'name'), next: null }),
    };
  }
  if (OPENAI_COMPATIBLE.has(type)) {
    return {
      first: { url: `${apiRoot(base, versionPrefix(type))}/models`, headers: bearer(k) },
      read: (a) => ({ ids: ids(asObject(a).data, 'id'), next: null }),
    };
  }
  throw new UnsupportedError(String(type));
}
