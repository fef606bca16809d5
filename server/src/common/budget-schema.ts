import type { ApiPropertyOptions } from '@nestjs/swagger';
import type { Period } from './calendar';

/** The caps of one period (both always present). */
const CAPS = {
  type: 'object',
  properties: {
    quota: { type: 'integer', description: 'quota cap (0 = none)' },
    requests: { type: 'integer', description: 'request cap (0 = none)' },
  },
} satisfies ApiPropertyOptions;

/** A budget as the API shows it: the caps of each capped period (day, week, month); null = no budget. */
export const BUDGET_SCHEMA = {
  type: 'object',
  nullable: true,
  description: 'quota and request caps per day, week and month (0 = none); null = no budget',
  properties: { day: CAPS, week: CAPS, month: CAPS } satisfies Record<Period, unknown>,
  example: { month: { quota: 5000000, requests: 0 } },
} satisfies ApiPropertyOptions;
