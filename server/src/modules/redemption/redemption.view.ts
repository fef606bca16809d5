import { ApiProperty } from '@nestjs/swagger';
import { Redemption } from '../../database/entities';

/** A redemption code as admins see it (the key in full: they hand it out). */
export class RedemptionView {
  @ApiProperty() id!: number;
  @ApiProperty() user_id!: number;
  @ApiProperty() key!: string;
  @ApiProperty() status!: number;
  @ApiProperty() name!: string;
  @ApiProperty() quota!: number;
  @ApiProperty() created_time!: number;
  @ApiProperty() redeemed_time!: number;
  @ApiProperty() used_user_id!: number;
  @ApiProperty() expired_time!: number;
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
