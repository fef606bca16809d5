import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ScopedLimitsDto } from '../../common/scoped-limits.dto';
import { Allow, IsInt } from 'class-validator';

/**
 * The writable token fields. They are only whitelisted here: the rules (ranges, formats, usable
 * groups) and their localized messages live in token-rules.ts and TokenManageService, so a wrong
 * type gets the same clear message as a wrong value.
 */
export class TokenFieldsDto extends ScopedLimitsDto {
  @ApiPropertyOptional({ description: 'at most 50 characters' }) @Allow() name?: unknown;
  @ApiPropertyOptional({ description: 'integer, 0 to 2^53 − 1', example: 500000 }) @Allow() remain_quota?: unknown;
  @ApiPropertyOptional({ description: '-1 (never) or unix seconds in the future', example: -1 })
  @Allow()
  expired_time?: unknown;
  @ApiPropertyOptional({ type: Boolean }) @Allow() unlimited_quota?: unknown;
  @ApiPropertyOptional({ type: Boolean }) @Allow() model_limits_enabled?: unknown;
  @ApiPropertyOptional({ description: 'comma list of model names' }) @Allow() model_limits?: unknown;
  @ApiPropertyOptional({ description: 'one IP or CIDR per line' }) @Allow() allow_ips?: unknown;
  @ApiPropertyOptional({ description: "'' or a group the user may use" }) @Allow() group?: unknown;
  @ApiPropertyOptional({
    description: 'caps per period, 0 = none; null clears: {"day": {"quota": 500000, "requests": 100}, "week": {...}, "month": {...}}',
  })
  @Allow()
  budget?: unknown;
}

export class CreateTokenDto extends TokenFieldsDto {
  @ApiPropertyOptional({ description: 'how many tokens to create (1-100); names get a random suffix when > 1' })
  @Allow()
  count?: unknown;
}

export class UpdateTokenDto extends TokenFieldsDto {
  @ApiProperty() @IsInt() id!: number;
  @ApiPropertyOptional({ description: '1 enabled, 2 disabled' }) @Allow() status?: unknown;
}

export class TokenIdsDto {
  @ApiProperty({ type: [Number] }) @Allow() ids?: unknown;
}
