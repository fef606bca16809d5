import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { ValidateBy, ValidateIf, type ValidationArguments } from 'class-validator';

/**
 * A rule checks one value and throws the product's AppError (localized by the error filter) when it is
 * wrong. It also sees the whole body, for a message that names a sibling field (an option's key).
 */
export type FieldRule = (value: unknown, body: Readonly<Record<string, unknown>>) => unknown;

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
        validate: (value: unknown, args?: ValidationArguments) => {
          rule(value, (args?.object ?? {}) as Readonly<Record<string, unknown>>);
          return true;
        },
      },
    }),
  );
}
