import type { PayMethod, RawAnswer } from './wallet-api';

/**
 * The PayMethods option as the wallet uses it: a list of `{name, type, color?}` with text name and type.
 * null when the value is not such a list (the spec's 'pay method config error, contact admin').
 */
export function parsePayMethods(value: unknown): PayMethod[] | null {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(list)) {
    return null;
  }
  const methods: PayMethod[] = [];
  for (const entry of list) {
    if (
      !entry ||
      typeof entry !== 'object' ||
      typeof (entry as PayMethod).name !== 'string' ||
      typeof (entry as PayMethod).type !== 'string'
    ) {
      return null;
    }
    const { name, type, color } = entry as PayMethod;
    methods.push({ name, type, color: typeof color === 'string' ? color : undefined });
  }
  return methods;
}

/**
 * The amount typed in → the whole number sent: not a number → null; below 1 is raised to 1 (
 * docs/decisions.md#top-up-amount); fractions are dropped.
 */
export function normalizeAmount(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '' || !/^-?\d+(\.\d+)?$/.test(trimmed)) {
    return null;
  }
  const value = Math.floor(Number(trimmed));
  if (!Number.isFinite(value)) {
    return null;
  }
  return Math.min(Math.max(value, 1), Number.MAX_SAFE_INTEGER);
}

/** The minimum amount in the unit the amount field uses: MinTopUp units, or that many units of quota. */
export function minimumAmount(info: {
  min_topup: number;
  display_in_currency: boolean;
  quota_per_unit: number;
}) {
  return info.display_in_currency ? info.min_topup : Math.ceil(info.min_topup * info.quota_per_unit);
}

/** A `/amount` or `/pay` answer: success with its data, or the reason to show (`data` first, else message). */
export function readRawAnswer(
  answer: RawAnswer,
): { ok: true; data: unknown; url: string } | { ok: false; reason: string | null } {
  const raw = answer.raw;
  if (!raw) {
    return { ok: false, reason: null };
  }
  if (raw.success === true && raw.message === 'success') {
    return { ok: true, data: raw.data, url: typeof raw.url === 'string' ? raw.url : '' };
  }
  if (typeof raw.data === 'string' && raw.data !== '') {
    return { ok: false, reason: raw.data };
  }
  return { ok: false, reason: typeof raw.message === 'string' && raw.message !== '' ? raw.message : null };
}

/** Only http(s) gateway addresses get a form posted to them. */
export function isGatewayUrl(url: string): boolean {
  try {
    const parsed = new URL(url, typeof window === 'undefined' ? 'http://localhost' : window.location.href);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Posts the signed epay fields to the gateway the way epay expects: a form, submitted into a new window
 * (`target`), removed again. The fields are set as values (never as HTML), so nothing in them can run.
 */
export function submitPayForm(
  url: string,
  fields: Record<string, unknown>,
  target = '_blank',
): HTMLFormElement {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = url;
  form.target = target;
  form.style.display = 'none';
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : '';
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
  form.remove();
  return form;
}
