import { fail } from './app-error';

/** The limit columns of channels and tokens; 0 = unlimited. */
export const LIMIT_FIELDS = ['rpm_limit', 'tpm_limit', 'concurrency_limit'] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];

/** Largest accepted value of each limit (the columns are 32-bit). */
export const LIMIT_MAX: Record<LimitField, number> = {
  rpm_limit: 1_000_000,
  tpm_limit: 2_000_000_000,
  concurrency_limit: 100_000,
};

/** A limit field of a write: undefined when absent (or null: unchanged), else an integer 0..max. */
export function checkLimit(raw: Record<string, unknown>, field: LimitField): number | undefined {
  const v = raw[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > LIMIT_MAX[field])
    throw fail('limit_field_invalid', { field, max: LIMIT_MAX[field] });
  return v;
}

/** Every limit field present in `raw`, validated. */
export function checkLimits(raw: Record<string, unknown>): Partial<Record<LimitField, number>> {
  const out: Partial<Record<LimitField, number>> = {};
  for (const f of LIMIT_FIELDS) {
    const v = checkLimit(raw, f);
    if (v !== undefined) out[f] = v;
  }
  return out;
}
