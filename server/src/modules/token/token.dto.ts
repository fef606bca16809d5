import { ScopedLimitsDto } from '../../common/scoped-limits.dto';
import { Budget, checkBudget } from '../../common/budget-rules';
import { BUDGET_SCHEMA } from '../../common/budget-schema';
import { fail } from '../../common/app-error';
import { Field } from '../../common/validation';
import { TokenStatus } from '../../database/entities';
import {
  checkAllowIps,
  checkBool,
  checkCount,
  checkModelLimits,
  checkName,
  checkRemainQuota,
  checkTokenIds,
  TOKEN_BATCH_IDS_MAX,
  TOKEN_CREATE_MAX,
  TOKEN_EXPIRY_MAX,
  TOKEN_NAME_MAX,
  TOKEN_QUOTA_MAX,
} from './token-rules';

/** An expiry of the right shape; whether it lies in the future is checked on write (an edit may send the stored one). */
function checkExpiryShape(v: unknown): void {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < -1 || v > TOKEN_EXPIRY_MAX)
    throw fail('token_expiry_invalid');
}

/** A group name; whether the user may use it is checked on write. */
function checkGroupShape(v: unknown): void {
  if (typeof v !== 'string') throw fail('token_group_invalid', { group: JSON.stringify(v).slice(0, 40) });
}

/**
 * The writable token fields, each with its schema and its rule (token-rules.ts): a wrong type gets the
 * same localized message as a wrong value. Rules that need the caller (usable groups, an expiry in the
 * future) run again in TokenManageService.
 */
export class TokenFieldsDto extends ScopedLimitsDto {
  @Field(checkName, { type: 'string', maxLength: TOKEN_NAME_MAX, example: 'my app' })
  name?: string;
  @Field(checkRemainQuota, { type: 'integer', minimum: 0, maximum: TOKEN_QUOTA_MAX, example: 500000 })
  remain_quota?: number;
  @Field(checkExpiryShape, {
    type: 'integer',
    minimum: -1,
    maximum: TOKEN_EXPIRY_MAX,
    description: '-1 (never) or unix seconds in the future',
    example: -1,
  })
  expired_time?: number;
  @Field((v) => checkBool(v, 'unlimited_quota'), { type: 'boolean' })
  unlimited_quota?: boolean;
  @Field((v) => checkBool(v, 'model_limits_enabled'), { type: 'boolean' })
  model_limits_enabled?: boolean;
  @Field(checkModelLimits, {
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'comma list of model names (or an array of them)',
    example: 'gpt-4o,claude-sonnet-4',
  })
  model_limits?: string | string[];
  @Field(checkAllowIps, { type: 'string', description: 'one IP or CIDR per line', example: '203.0.113.0/24' })
  allow_ips?: string;
  @Field(checkGroupShape, { type: 'string', description: "'' or a group the user may use", example: '' })
  group?: string;
  @Field((v) => checkBudget(v), {
    ...BUDGET_SCHEMA,
    description: 'caps per period, 0 = none; null clears',
    example: { day: { quota: 500000, requests: 100 } },
  })
  budget?: Budget | null;
}

export class CreateTokenDto extends TokenFieldsDto {
  @Field(checkCount, {
    type: 'integer',
    minimum: 1,
    maximum: TOKEN_CREATE_MAX,
    description: 'how many tokens to create (default 1); names get a random suffix when > 1',
    example: 1,
  })
  count?: number;
}

export class UpdateTokenDto extends TokenFieldsDto {
  @Field(
    (v) => {
      if (typeof v !== 'number' || !Number.isSafeInteger(v))
        throw fail('field_invalid', { field: 'id', reason: 'must be a token id' });
    },
    { type: 'integer', required: true, description: 'an id of no own token is "not found"', example: 1 },
  )
  id!: number;
  @Field(
    (v) => {
      if (v !== TokenStatus.Enabled && v !== TokenStatus.Disabled) throw fail('token_status_invalid');
    },
    {
      type: 'integer',
      enum: [TokenStatus.Enabled, TokenStatus.Disabled],
      description: '1 enabled, 2 disabled',
    },
  )
  status?: number;
}

export class TokenIdsDto {
  @Field(checkTokenIds, {
    type: 'array',
    items: { type: 'integer' },
    maxItems: TOKEN_BATCH_IDS_MAX,
    required: true,
    description: 'token ids',
  })
  ids?: number[];
}
