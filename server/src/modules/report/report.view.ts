import { ApiProperty } from '@nestjs/swagger';
import { Period, PERIODS } from '../../common/calendar';

export const DIMENSIONS = ['user', 'token', 'model', 'channel', 'group'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** Consumption summed over a set of consume logs. */
export class ReportFigures {
  @ApiProperty({ type: 'integer' }) requests!: number;
  @ApiProperty({ type: 'integer', description: 'quota charged' }) quota!: number;
  @ApiProperty({ type: 'integer' }) prompt_tokens!: number;
  @ApiProperty({ type: 'integer' }) completion_tokens!: number;
}

/** One period × key of a report. */
export class ReportRow extends ReportFigures {
  @ApiProperty({
    type: 'integer',
    description: "first second of the period (unix seconds) in the report's time zone",
  })
  period_start!: number;
  @ApiProperty({ description: "2026-11-25 (day), the week's Monday, or 2026-11 (month)" })
  period!: string;
  @ApiProperty({
    oneOf: [{ type: 'integer' }, { type: 'string' }],
    description: 'user id, token id, channel id (numbers) or model name, group (text)',
  })
  key!: number | string;
  @ApiProperty({
    description: "user name, token name, channel name, model, group ('' when the channel is gone)",
  })
  name!: string;
}

/** Consumption by period × dimension over a time range. */
export class Report {
  @ApiProperty({ enum: PERIODS }) period!: Period;
  @ApiProperty({ enum: DIMENSIONS }) group_by!: Dimension;
  @ApiProperty({ description: 'the IANA time zone periods are counted in' }) time_zone!: string;
  @ApiProperty({ type: 'integer' }) start_timestamp!: number;
  @ApiProperty({ type: 'integer' }) end_timestamp!: number;
  @ApiProperty({ type: [ReportRow] }) rows!: ReportRow[];
  @ApiProperty({ type: ReportFigures }) totals!: ReportFigures;
}
