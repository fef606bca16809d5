import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * Top-up request bodies. Fields are only whitelisted here; the rules and their localized messages live
 * in TopUpService, so a wrong type gets the same clear message as a wrong value.
 */
export class AmountDto {
  @ApiProperty({
    description: 'whole number ≥ MinTopUp: units (dollars) in currency display mode, else quota',
    example: 10,
  })
  @Allow()
  amount?: unknown;
  @ApiPropertyOptional({ description: 'accepted and ignored' }) @Allow() top_up_code?: unknown;
}

export class PayDto extends AmountDto {
  @ApiProperty({ description: 'a `type` of the PayMethods option', example: 'zfb' })
  @Allow()
  payment_method?: unknown;
}

export class CompleteTopUpDto {
  @ApiProperty({ description: 'the order number of a pending top-up' }) @Allow() trade_no?: unknown;
}
