import { fail } from '../../common/app-error';
import { Field } from '../../common/validation';
import {
  checkCount,
  checkQuota,
  REDEMPTION_CREATE_MAX,
  REDEMPTION_EXPIRY_MAX,
  REDEMPTION_KEY_MAX,
  REDEMPTION_NAME_MAX,
  REDEMPTION_QUOTA_MAX,
} from './redemption-rules';

/** Text, or absent (an empty name on create stands for the formatted quota; its length is checked on write). */
function checkNameShape(v: unknown): void {
  if (typeof v !== 'string') throw fail('field_invalid', { field: 'name', reason: 'must be text' });
}

/** 0 (never) or unix seconds; whether it lies in the future is checked on write (an edit may send the stored one). */
function checkExpiryShape(v: unknown): void {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > REDEMPTION_EXPIRY_MAX)
    throw fail('redemption_expiry_invalid');
}

/**
 * Redemption code bodies: each field with its schema and its rule (redemption-rules.ts), so a wrong
 * type gets the same localized message as a wrong value. The quota is checked before the name, as on write.
 */
export class RedemptionFieldsDto {
  @Field(checkQuota, { type: 'integer', minimum: 1, maximum: REDEMPTION_QUOTA_MAX, example: 100000 })
  quota?: number;
  @Field(checkNameShape, {
    type: 'string',
    maxLength: REDEMPTION_NAME_MAX,
    description: '1–20 characters; on create, empty means the formatted quota',
    example: 'welcome',
  })
  name?: string;
  @Field(checkExpiryShape, {
    type: 'integer',
    minimum: 0,
    maximum: REDEMPTION_EXPIRY_MAX,
    description: '0 (never) or unix seconds in the future',
    example: 0,
  })
  expired_time?: number;
}

export class CreateRedemptionDto extends RedemptionFieldsDto {
  @Field(checkCount, {
    type: 'integer',
    minimum: 1,
    maximum: REDEMPTION_CREATE_MAX,
    description: 'how many codes (default 1)',
    example: 1,
  })
  count?: number;
}

export class UpdateRedemptionDto extends RedemptionFieldsDto {
  @Field(
    (v) => {
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw fail('redemption_not_found');
    },
    { type: 'integer', minimum: 1, required: true },
  )
  id!: number;
  @Field(
    (v) => {
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw fail('redemption_status_invalid');
    },
    { type: 'integer', enum: [1, 2], description: 'with ?status_only=true: 1 enabled, 2 disabled' },
  )
  status?: number;
}

export class RedeemDto {
  @Field(
    (v) => {
      if (typeof v !== 'string' || v.trim().length > REDEMPTION_KEY_MAX) throw fail('redemption_invalid');
    },
    { type: 'string', maxLength: REDEMPTION_KEY_MAX, description: 'the redemption code', required: true },
  )
  key!: string;
}
