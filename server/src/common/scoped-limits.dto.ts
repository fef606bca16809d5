import { checkLimit, LIMIT_MAX, type LimitField as LimitFieldName } from './scoped-limit-rules';
import { Field } from './validation';

/**
 * The per-channel and per-token limits, shared by both write DTOs: integers from 0 (no limit) to the
 * column's maximum, refused with the localized message of scoped-limit-rules.ts.
 */
export class ScopedLimitsDto {
  @LimitField('rpm_limit', 'requests per minute') rpm_limit?: number;
  @LimitField('tpm_limit', 'tokens (prompt + completion) per minute') tpm_limit?: number;
  @LimitField('concurrency_limit', 'requests in flight at once') concurrency_limit?: number;
}

function LimitField(field: LimitFieldName, what: string) {
  return Field((v) => checkLimit({ [field]: v }, field), {
    type: 'integer',
    minimum: 0,
    maximum: LIMIT_MAX[field],
    description: `${what}, 0 to ${LIMIT_MAX[field]} (0 = no limit)`,
    example: 0,
  });
}
