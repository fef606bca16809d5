import { TopUp } from '../../database/entities';

/** A top-up order as the API shows it. `amount` is the quota the order credits. */
export interface TopUpView {
  id: number;
  user_id: number;
  amount: number;
  money: number;
  trade_no: string;
  payment_method: string;
  create_time: number;
  complete_time: number;
  status: string;
}

/** An order in the admin list: also the owner's username. */
export interface AdminTopUpView extends TopUpView {
  username: string;
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
