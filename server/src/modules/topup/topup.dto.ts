import { AppError, fail } from '../../common/app-error';
import type { MessageKey } from '../../common/i18n/messages';
import { Field } from '../../common/validation';

/** Longest order number stored (the `trade_no` column). */
export const TRADE_NO_MAX = 64;

/**
 * A refused field of `/amount` or `/pay`. Those two routes answer a refusal in their own compatibility
 * shape, `{success: false, message: "error", data: "<why>"}` (see PayRefusalFilter); everywhere else it
 * is the usual localized business failure.
 */
export class PayFieldError extends AppError {}

const payFail = (key: MessageKey, params?: Record<string, unknown>) => new PayFieldError(key, params);

/** A whole, positive number of units (or quota) a JSON number carries exactly; the minimum is the service's rule. */
export function checkAmount(v: unknown): void {
  if (typeof v === 'number' && v > Number.MAX_SAFE_INTEGER) throw payFail('topup_amount_too_large');
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) throw payFail('topup_amount_invalid');
}

/**
 * Top-up request bodies, each field with its schema and its rule: a wrong type gets the same localized
 * message as a wrong value (what needs the settings, such as the minimum, is checked in TopUpService).
 */
export class AmountDto {
  @Field(checkAmount, {
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    required: true,
    description: 'whole number ≥ MinTopUp: units (dollars) in currency display mode, else quota',
    example: 10,
  })
  amount?: number;
  @Field(
    (v) => {
      if (typeof v !== 'string')
        throw payFail('field_invalid', { field: 'top_up_code', reason: 'must be text' });
    },
    { type: 'string', description: 'accepted and ignored' },
  )
  top_up_code?: string;
}

export class PayDto extends AmountDto {
  @Field(
    (v) => {
      if (typeof v !== 'string') throw payFail('topup_pay_method_invalid');
    },
    { type: 'string', required: true, description: 'a `type` of the PayMethods option', example: 'zfb' },
  )
  payment_method?: string;
}

export class CompleteTopUpDto {
  @Field(
    (v) => {
      if (typeof v !== 'string') throw fail('topup_trade_no_required');
    },
    {
      type: 'string',
      required: true,
      description: `the order number of a pending top-up (at most ${TRADE_NO_MAX} characters)`,
    },
  )
  trade_no?: string;
}
