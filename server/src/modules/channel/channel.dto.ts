import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { ScopedLimitsDto } from '../../common/scoped-limits.dto';
import { fail } from '../../common/app-error';
import { INT32_MAX } from '../../common/ids';
import { Field, type FieldRule } from '../../common/validation';
import {
  CHANNEL_LIMITS,
  checkGroups,
  checkJsonObject,
  checkKey,
  checkModels,
  checkOther,
  checkPriority,
  checkText,
  checkWeight,
  JSON_FIELDS,
  PRIORITY_MIN,
} from './channel-rules';
import { CHANNEL_TYPES } from './channel-types';

const channelFieldInvalid = (field: string, reason: string) =>
  fail('channel_field_invalid', { field, reason });

/** A JSON object, as text or as an object ('' clears it); checked by the rule of channel-rules.ts. */
const JsonObjectField = (field: (typeof JSON_FIELDS)[number], description = 'JSON object as text') =>
  Field((v) => checkJsonObject({ [field]: v }, field), {
    oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }],
    description,
  });

/** A comma list, or a list of names; checked by the rule of channel-rules.ts. */
const ListField = (check: FieldRule, description: string, example?: string) =>
  Field(check, {
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description,
    ...(example ? { example } : {}),
  });

/** Optional text of at most `max` characters, without control characters; null (or '') clears it. */
const TextField = (
  field: keyof typeof CHANNEL_LIMITS,
  options: { description?: string; example?: string; nullable?: boolean; required?: boolean } = {},
) =>
  Field((v) => checkText(v, field, CHANNEL_LIMITS[field]), {
    type: 'string',
    maxLength: CHANNEL_LIMITS[field],
    ...options,
  });

/** The id of a channel: a whole number (an id no channel has is "not found" on write). */
const IdField = () =>
  Field(
    (v) => {
      if (typeof v !== 'number' || !Number.isSafeInteger(v))
        throw channelFieldInvalid('id', 'must be a channel id');
    },
    { type: 'integer', required: true, example: 1 },
  );

/**
 * The writable channel fields, each with its schema and its rule with the spec's message
 * (channel-rules.ts). What needs the whole body (required name/key/models on create, the status a
 * create may set) is checked on write.
 */
export class ChannelFieldsDto extends ScopedLimitsDto {
  @Field(
    (v) => {
      if (typeof v !== 'number' || !Number.isInteger(v) || !CHANNEL_TYPES[v])
        throw fail('channel_type_invalid');
    },
    { type: 'integer', description: 'channel type id (see GET /api/models)', example: 1 },
  )
  type?: number;
  @TextField('name', { description: 'required on create', example: 'openai main' }) name?: string;
  @Field(checkKey, {
    type: 'string',
    description: 'write-only; empty on update keeps the stored key; batch mode: one per line',
  })
  key?: string;
  @TextField('base_url', {
    nullable: true,
    description: 'http(s) address; trailing slashes are stripped',
    example: 'https://api.openai.com',
  })
  base_url?: string | null;
  @Field(checkOther, {
    type: 'string',
    nullable: true,
    description: "the channel type's extra setting (an API version, or a JSON object as text)",
  })
  other?: string | null;
  @TextField('openai_organization', { nullable: true }) openai_organization?: string | null;
  @ListField(
    (v) => checkModels({ models: v }),
    'comma list (an array of names is accepted too)',
    'gpt-4o,gpt-4o-mini',
  )
  models?: string | string[];
  @ListField((v) => checkGroups({ group: v }), 'comma list of groups', 'default,vip')
  group?: string | string[];
  @ListField((v) => checkGroups({ groups: v }), 'groups as a list (wins over group)')
  groups?: string | string[];
  @JsonObjectField('model_mapping') model_mapping?: string | Record<string, unknown>;
  @JsonObjectField('status_code_mapping') status_code_mapping?: string | Record<string, unknown>;
  @JsonObjectField('param_override') param_override?: string | Record<string, unknown>;
  @JsonObjectField('setting') setting?: string | Record<string, unknown>;
  @Field(checkPriority, { type: 'integer', minimum: PRIORITY_MIN, example: 0 }) priority?: number;
  @Field(checkWeight, { type: 'integer', minimum: 0, maximum: INT32_MAX, example: 0 }) weight?: number;
  @TextField('tag', { nullable: true }) tag?: string | null;
  @TextField('test_model', { nullable: true }) test_model?: string | null;
  @Field(
    (v) => {
      if (v !== true && v !== false && v !== 1 && v !== 0)
        throw channelFieldInvalid('auto_ban', 'must be 0 or 1');
    },
    { type: 'integer', enum: [0, 1], description: '1 or 0 (default 1; true and false are accepted)' },
  )
  auto_ban?: number | boolean;
  @Field(
    (v) => {
      if (v !== 1 && v !== 2 && v !== 3) throw channelFieldInvalid('status', 'must be one of 1, 2, 3');
    },
    {
      type: 'integer',
      enum: [1, 2, 3],
      description: '1 enabled, 2 disabled (3 automatically disabled; not on create)',
    },
  )
  status?: number;
  @Field(
    (v) => {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > INT32_MAX)
        throw channelFieldInvalid('max_input_tokens', 'must be a non-negative integer');
    },
    { type: 'integer', minimum: 0, maximum: INT32_MAX, description: '0 = no limit' },
  )
  max_input_tokens?: number;
}

/**
 * Our flat form, or new-api's wrapped one: `{mode, multi_key_mode, batch_add_set_key_prefix_2_name,
 * channel: {…fields}}` (its console and the tools built on it send that). In the wrapped form the
 * fields come from `channel` only.
 */
export class CreateChannelDto extends ChannelFieldsDto {
  @Field(
    (v) => {
      if (v === 'multi_to_single') throw fail('channel_multi_key_unsupported');
      if (v !== 'single' && v !== 'batch') throw channelFieldInvalid('mode', "must be 'single' or 'batch'");
    },
    { type: 'string', enum: ['single', 'batch'], description: 'batch: one channel per non-empty key line' },
  )
  mode?: 'single' | 'batch';
  @Field(
    (v) => {
      if (typeof v !== 'object' || Array.isArray(v))
        throw channelFieldInvalid('channel', 'must be an object');
    },
    {
      type: () => ChannelFieldsDto,
      description: "new-api's wrapped form: the channel's fields (those beside it are then ignored)",
    },
  )
  @ValidateNested()
  @Type(() => ChannelFieldsDto)
  channel?: ChannelFieldsDto;
  @Field(
    (v) => {
      if (typeof v !== 'boolean')
        throw channelFieldInvalid('batch_add_set_key_prefix_2_name', 'must be true or false');
    },
    {
      type: 'boolean',
      description: "batch mode with several keys: each channel's name gets its key's first 8 characters",
    },
  )
  batch_add_set_key_prefix_2_name?: boolean;
  @Field(
    (v) => {
      if (typeof v !== 'string') throw channelFieldInvalid('multi_key_mode', 'must be text');
    },
    { type: 'string', description: "new-api's key rotation of a multi-key channel; accepted, not used" },
  )
  multi_key_mode?: string;
}

export class UpdateChannelDto extends ChannelFieldsDto {
  @IdField() id!: number;
}

export class ChannelIdsDto {
  @Field(
    (v) => {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isSafeInteger(x)))
        throw channelFieldInvalid('ids', 'must be a list of channel ids');
    },
    { type: 'array', items: { type: 'integer' }, required: true, description: 'channel ids' },
  )
  ids?: number[];
}

/** A manual status change as new-api takes it: 1 enabled, 2 disabled. */
const manualStatus: FieldRule = (v) => {
  if (v !== 1 && v !== 2) throw channelFieldInvalid('status', 'must be 1 (enabled) or 2 (disabled)');
};
const MANUAL_STATUS = {
  type: 'integer',
  enum: [1, 2],
  required: true,
  description: '1 enabled, 2 disabled',
} as const;

export class ChannelStatusDto {
  @Field(manualStatus, MANUAL_STATUS) status!: number;
}

export class ChannelStatusBatchDto extends ChannelIdsDto {
  @Field(manualStatus, MANUAL_STATUS) status!: number;
}

export class BatchTagDto extends ChannelIdsDto {
  @TextField('tag', { required: true, example: 'team-a' }) tag?: string;
}

export class TagDto {
  @TextField('tag', { required: true, example: 'team-a' }) tag?: string;
}

export class EditTagDto extends TagDto {
  @Field((v) => checkText(v, 'new_tag', CHANNEL_LIMITS.tag), {
    type: 'string',
    maxLength: CHANNEL_LIMITS.tag,
    nullable: true,
    description: 'absent = unchanged; empty string dissolves the tag',
  })
  new_tag?: string | null;
  @JsonObjectField('model_mapping', 'JSON object as text; empty = unchanged')
  model_mapping?: string | Record<string, unknown>;
  @ListField((v) => checkModels({ models: v }), 'comma list or list; empty = unchanged')
  models?: string | string[];
  @ListField(
    (v) => v === '' || (Array.isArray(v) && !v.length) || checkGroups({ groups: v }),
    'comma list or list; empty = unchanged',
  )
  groups?: string | string[];
  @Field((v) => v === '' || checkPriority(v), {
    oneOf: [
      { type: 'integer', minimum: PRIORITY_MIN },
      { type: 'string', enum: [''] },
    ],
    description: 'integer ≥ -999; empty = unchanged',
  })
  priority?: number | '';
  @Field((v) => v === '' || checkWeight(v), {
    oneOf: [
      { type: 'integer', minimum: 0, maximum: INT32_MAX },
      { type: 'string', enum: [''] },
    ],
    description: 'integer ≥ 0; empty = unchanged',
  })
  weight?: number | '';
}
