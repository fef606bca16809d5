import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * Redemption code bodies. Fields are only whitelisted here; the rules and their localized messages live
 * in redemption-rules.ts and RedemptionService.
 */
export class RedemptionFieldsDto {
  @ApiPropertyOptional({ description: '1–20 characters; on create, empty means the formatted quota' })
  @Allow()
  name?: unknown;
  @ApiPropertyOptional({ description: 'whole number > 0', example: 100000 }) @Allow() quota?: unknown;
  @ApiPropertyOptional({ description: '0 (never) or unix seconds in the future', example: 0 })
  @Allow()
  expired_time?: unknown;
}

export class CreateRedemptionDto extends RedemptionFieldsDto {
  @ApiPropertyOptional({ description: 'how many codes (1–100, default 1)', example: 1 })
  @Allow()
  count?: unknown;
}

export class UpdateRedemptionDto extends RedemptionFieldsDto {
  @ApiProperty() @Allow() id?: unknown;
  @ApiPropertyOptional({ description: 'with ?status_only=true: 1 enabled, 2 disabled' })
  @Allow()
  status?: unknown;
}

export class RedeemDto {
  @ApiProperty({ description: 'the redemption code' }) @Allow() key?: unknown;
}
