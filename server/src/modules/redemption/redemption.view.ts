import { Redemption } from '../../database/entities';

/** A redemption code as admins see it (the key in full: they hand it out). */
export interface RedemptionView {
  id: number;
  user_id: number;
  key: string;
  status: number;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
  used_user_id: number;
  expired_time: number;
}

export function toRedemptionView(r: Redemption): RedemptionView {
  return {
    id: r.id,
    user_id: r.user_id,
    key: r.key,
    status: r.status,
    name: r.name,
    quota: Number(r.quota),
    created_time: Number(r.created_time),
    redeemed_time: Number(r.redeemed_time),
    used_user_id: r.used_user_id,
    expired_time: Number(r.expired_time),
  };
}
