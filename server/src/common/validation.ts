import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { ValidateBy, ValidateIf } from 'class-validator';
import { fail } from './app-error';

/** A rule checks one value and throws the product's AppError (localized by the error filter) when it is wrong. */
export type FieldRule = (value: unknown) => unknown;

type FieldOptions = ApiPropertyOptions & {
  /**
   * Documented as required. The rule runs only on a value that is sent (null counts as absent): what an
   * absent field means (a default, or a localized "required" refusal) is the write's own rule.
   */
  required?: boolean;
};

/**
 * The one way a request body declares a field: its schema in the OpenAPI document and its rule,
 * run by the validation pipe before the handler. A wrong value (of the wrong type too) is refused with
 * the rule's localized message, in the caller's language, and nothing is written.
 */
export function Field(rule: FieldRule, options: FieldOptions) {
  const { required = false, ...schema } = options;
  return applyDecorators(
    required ? ApiProperty(schema) : ApiPropertyOptional(schema),
    ValidateIf((_o: object, v: unknown) => v !== undefined && v !== null),
    ValidateBy({
      name: 'gatehouseRule',
      validator: {
        validate: (value: unknown) => {
          rule(value);
          return true;
        },
      },
    }),
  );
}

/** A whole number in [min, max]. */
export function IntField(
  field: string,
  min: number,
  max: number,
  options: Omit<FieldOptions, 'type' | 'minimum' | 'maximum'> = {},
) {
  return Field(
    (v) => {
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max)
        throw fail('field_invalid', { field, reason: `a whole number from ${min} to ${max}` });
    },
    { type: 'integer', minimum: min, maximum: max, ...options },
  );
}

/** true or false (1 and 0 are accepted as well, as clients of this API family send them). */
export function BoolField(field: string, options: Omit<FieldOptions, 'type'> = {}) {
  return Field(
    (v) => {
      if (typeof v !== 'boolean' && v !== 0 && v !== 1)
        throw fail('field_invalid', { field, reason: 'must be true or false' });
    },
    { type: 'boolean', ...options },
  );
}

/** Text (its length and content are the field's own rule, when it has one). */
export function TextField(field: string, options: Omit<FieldOptions, 'type'> & { rule?: FieldRule } = {}) {
  const { rule, ...rest } = options;
  return Field(
    (v) => {
      if (typeof v !== 'string') throw fail('field_invalid', { field, reason: 'must be text' });
      rule?.(v);
    },
    { type: 'string', ...rest },
  );
}

/** A list of row ids (positive whole numbers). */
export function IdListField(field: string, options: Omit<FieldOptions, 'type'> = {}) {
  return Field(
    (v) => {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isSafeInteger(x) && x > 0))
        throw fail('field_invalid', { field, reason: 'a list of ids' });
    },
    { type: 'array', items: { type: 'integer', minimum: 1 }, ...options },
  );
}
