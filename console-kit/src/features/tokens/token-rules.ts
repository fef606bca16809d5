import type { Token, TokenFields } from '../../lib/tokens-api';
import { formatExpiry, parseExpiry } from '../../lib/expiry';
import { buildBudget, budgetFormOf, emptyBudgetForm, type BudgetForm } from '../../lib/budget-rules';

export {
  EXPIRY_FORMAT,
  EXPIRY_PRESETS,
  expiryFromPreset,
  formatExpiry,
  NEVER_EXPIRES,
  parseExpiry,
  type ExpiryPresetId,
} from '../../lib/expiry';

/** Quota presets in raw units as the spec lists them ($1, $10, $50, $100, $500, $1000 at 500000 a dollar). */
export const QUOTA_PRESETS = [500_000, 5_000_000, 25_000_000, 50_000_000, 250_000_000, 500_000_000] as const;
/** A new token's quota: 500000 (one dollar). */
export const DEFAULT_TOKEN_QUOTA = 500_000;
/** Create-count presets. */
export const COUNT_PRESETS = [10, 20, 30, 100] as const;
export const MAX_CREATE_COUNT = 100;
export const MAX_NAME_LENGTH = 50;

export type TokenStatusName = 'enabled' | 'limited' | 'disabled' | 'expired' | 'exhausted' | 'unknown';

/** Status 1 enabled ('limited models' when model limits are on), 2 disabled, 3 expired, 4 exhausted. */
export function tokenStatusName(token: Pick<Token, 'status' | 'model_limits_enabled'>): TokenStatusName {
  switch (token.status) {
    case 1:
      return token.model_limits_enabled ? 'limited' : 'enabled';
    case 2:
      return 'disabled';
    case 3:
      return 'expired';
    case 4:
      return 'exhausted';
    default:
      return 'unknown';
  }
}

/** The drawer's editable state (text fields stay text until submitted). */
export interface TokenForm {
  name: string;
  remainQuota: string;
  unlimited: boolean;
  expiry: string;
  count: string;
  modelLimitsEnabled: boolean;
  modelLimits: string[];
  allowIps: string;
  group: string;
  /** Requests per minute, tokens per minute, requests in flight, as typed ('' or 0 = no limit). */
  rpmLimit: string;
  tpmLimit: string;
  concurrencyLimit: string;
  /** Periodic budget caps as typed. */
  budget: BudgetForm;
}

/** The server's upper bounds of the token limits. */
export const LIMIT_MAX = { rpmLimit: 1_000_000, tpmLimit: 2_000_000_000, concurrencyLimit: 100_000 } as const;

/** A limit as typed: a whole number from 0 to `max` ('' counts as 0), else null. */
export function parseLimit(text: string, max: number): number | null {
  const trimmed = text.trim();
  if (trimmed === '') {
    return 0;
  }
  if (!/^\d+$/.test(trimmed)) {
    return null;
  }
  const value = Number(trimmed);
  return value <= max ? value : null;
}

export function emptyTokenForm(defaultGroup = ''): TokenForm {
  return {
    name: '',
    remainQuota: String(DEFAULT_TOKEN_QUOTA),
    unlimited: false,
    expiry: '',
    count: '1',
    modelLimitsEnabled: false,
    modelLimits: [],
    allowIps: '',
    group: defaultGroup,
    rpmLimit: '0',
    tpmLimit: '0',
    concurrencyLimit: '0',
    budget: emptyBudgetForm(),
  };
}

export function tokenFormOf(token: Token): TokenForm {
  return {
    name: token.name,
    remainQuota: String(token.remain_quota),
    unlimited: token.unlimited_quota,
    expiry: formatExpiry(token.expired_time),
    count: '1',
    modelLimitsEnabled: token.model_limits_enabled,
    modelLimits: token.model_limits
      .split(',')
      .map((model) => model.trim())
      .filter(Boolean),
    allowIps: token.allow_ips,
    group: token.group,
    rpmLimit: String(token.rpm_limit ?? 0),
    tpmLimit: String(token.tpm_limit ?? 0),
    concurrencyLimit: String(token.concurrency_limit ?? 0),
    budget: budgetFormOf(token.budget),
  };
}

export type TokenFormError =
  'expiryFormat' | 'quotaInvalid' | 'countInvalid' | 'nameTooLong' | 'limitInvalid' | 'budgetInvalid';

/** Checks the form and builds the payload; `creating` also checks the count. */
export function buildTokenPayload(
  form: TokenForm,
  creating: boolean,
): { ok: true; fields: TokenFields; count: number } | { ok: false; error: TokenFormError } {
  if ([...form.name].length > MAX_NAME_LENGTH) {
    return { ok: false, error: 'nameTooLong' };
  }
  const expiry = parseExpiry(form.expiry);
  if (!expiry.ok) {
    return { ok: false, error: 'expiryFormat' };
  }
  const quotaText = form.remainQuota.trim();
  const quota = Number(quotaText);
  if (!form.unlimited && (!/^\d+$/.test(quotaText) || !Number.isSafeInteger(quota))) {
    return { ok: false, error: 'quotaInvalid' };
  }
  const rpm = parseLimit(form.rpmLimit, LIMIT_MAX.rpmLimit);
  const tpm = parseLimit(form.tpmLimit, LIMIT_MAX.tpmLimit);
  const concurrency = parseLimit(form.concurrencyLimit, LIMIT_MAX.concurrencyLimit);
  if (rpm === null || tpm === null || concurrency === null) {
    return { ok: false, error: 'limitInvalid' };
  }
  const budget = buildBudget(form.budget);
  if (!budget.ok) {
    return { ok: false, error: 'budgetInvalid' };
  }
  let count = 1;
  if (creating) {
    const countText = form.count.trim();
    count = Number(countText);
    if (!/^\d+$/.test(countText) || count < 1 || count > MAX_CREATE_COUNT) {
      return { ok: false, error: 'countInvalid' };
    }
  }
  return {
    ok: true,
    count,
    fields: {
      name: form.name.trim(),
      remain_quota: Number.isSafeInteger(quota) && quota >= 0 ? quota : 0,
      expired_time: expiry.value,
      unlimited_quota: form.unlimited,
      model_limits_enabled: form.modelLimitsEnabled,
      model_limits: form.modelLimits.join(','),
      allow_ips: form.allowIps
        .split(/[\n,]/)
        .map((line) => line.trim())
        .filter(Boolean)
        .join('\n'),
      group: form.group,
      rpm_limit: rpm,
      tpm_limit: tpm,
      concurrency_limit: concurrency,
      // A new token without a budget sends none; an edit always sends it (null clears it).
      ...(budget.budget || !creating ? { budget: budget.budget } : {}),
    },
  };
}

/**
 * The group choices: the groups the user may use, with `auto` first when it is offered (docs/decisions.md#user-models-by-group:
 * `auto` is in the list when usable; spec: an auto choice is offered first when the default auto group
 * is on).
 */
export function groupChoices(
  groups: Record<string, { desc: string; ratio: number | string | null }> | undefined,
  defaultUseAutoGroup: boolean,
): { value: string; desc: string; ratio: number | string | null }[] {
  const entries = Object.entries(groups ?? {}).map(([value, info]) => ({
    value,
    desc: info?.desc ?? value,
    ratio: info?.ratio ?? null,
  }));
  const auto = entries.filter((entry) => entry.value === 'auto');
  const rest = entries.filter((entry) => entry.value !== 'auto');
  return defaultUseAutoGroup ? [...auto, ...rest] : [...rest, ...auto];
}

/** The new token's group: `auto` when the default auto group is on and offered, else the user's default. */
export function defaultGroupOf(choices: { value: string }[], defaultUseAutoGroup: boolean): string {
  if (defaultUseAutoGroup && choices.some((choice) => choice.value === 'auto')) {
    return 'auto';
  }
  return '';
}
