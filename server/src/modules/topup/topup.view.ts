import { ApiProperty } from '@nestjs/swagger';
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
