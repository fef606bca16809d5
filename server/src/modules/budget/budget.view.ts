import { ApiProperty } from '@nestjs/swagger';
import type { Budget } from '../../common/budget-rules';
import { BUDGET_SCHEMA } from '../../common/budget-schema';
import { Period, PERIODS } from '../../common/calendar';

/** Usage of one current period of a budget. */
export class PeriodUsageView {
  @ApiProperty({ enum: PERIODS }) period!: Period;
  @ApiProperty({ type: 'integer', description: "the period's first second (unix seconds)" }) start!: number;
  @ApiProperty({ type: 'integer', description: 'the first second of the next period (when it resets)' })
  resets_at!: number;
  @ApiProperty({
    description: "the reset as local wall time in the operator's zone",
    example: '2026-11-26 00:00',
  })
  resets!: string;
  @ApiProperty({ description: 'the IANA time zone' }) zone!: string;
  @ApiProperty({ type: 'integer', description: '0 = no quota cap' }) quota_cap!: number;
  @ApiProperty({ type: 'integer', description: 'charged in the period, plus what calls in flight hold' })
  quota_used!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'null = no quota cap' })
  quota_remaining!: number | null;
  @ApiProperty({ type: 'integer', description: '0 = no request cap' }) request_cap!: number;
  @ApiProperty({ type: 'integer' }) requests_used!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'null = no request cap' })
  requests_remaining!: number | null;
}

/** A budget (null when none is set) and the usage of each of its current periods. */
export class BudgetStatusView {
  @ApiProperty(BUDGET_SCHEMA) budget!: Budget | null;
  @ApiProperty({ type: [PeriodUsageView] }) periods!: PeriodUsageView[];
}

/** A group's budget status, with the group's name. */
export class GroupBudgetStatusView extends BudgetStatusView {
  @ApiProperty() name!: string;
}

/** The signed-in user's budget and its group's. */
export class OwnBudgetView {
  @ApiProperty({ description: "the operator's time zone periods are counted in" }) zone!: string;
  @ApiProperty({ type: BudgetStatusView }) user!: BudgetStatusView;
  @ApiProperty({ type: GroupBudgetStatusView }) group!: GroupBudgetStatusView;
}
