import { ApiProperty } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { TopUp } from '../../database/entities';

/** A top-up order as the API shows it. `amount` is the quota the order credits. */
export class TopUpView {
  @ApiProperty() id!: number;
  @ApiProperty() user_id!: number;
  @ApiProperty() amount!: number;
  @ApiProperty() money!: number;
  @ApiProperty() trade_no!: string;
  @ApiProperty() payment_method!: string;
  @ApiProperty() create_time!: number;
  @ApiProperty() complete_time!: number;
  @ApiProperty() status!: string;
}

/** An order in the admin list: also the owner's username. */
export class AdminTopUpView extends TopUpView {
  @ApiProperty() username!: string;
}

export function toTopUpView(t: TopUp): TopUpView {
  return {
    id: t.id,
    user_id: t.user_id,
    amount: Number(t.amount),
    money: Number(t.money),
    trade_no: t.trade_no,
    payment_method: t.payment_method ?? '',
    create_time: Number(t.create_time),
    complete_time: Number(t.complete_time),
    status: t.status,
  };
}

/** A payment method the wallet page offers: `name` and `type` always, other display keys as configured. */
const PAY_METHOD: SchemaObject = {
  type: 'object',
  required: ['name', 'type'],
  properties: { name: { type: 'string' }, type: { type: 'string' }, color: { type: 'string' } },
  additionalProperties: true,
};

/** The top-up settings the wallet page needs; `topup_group_ratio` is the caller's own group's. */
export class TopUpInfoView {
  @ApiProperty({ description: 'whether online payment is configured' }) enable_online_topup!: boolean;
  @ApiProperty({ type: 'array', items: PAY_METHOD })
  pay_methods!: Array<{ name: string; type: string; color?: string }>;
  @ApiProperty() min_topup!: number;
  @ApiProperty() price!: number;
  @ApiProperty() topup_group_ratio!: number;
  @ApiProperty() quota_per_unit!: number;
  @ApiProperty() display_in_currency!: boolean;
  @ApiProperty() usd_exchange_rate!: number;
  @ApiProperty() topup_link!: string;
}
