import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * Top-up request bodies. Fields are only whitelisted here: `/amount` and `/pay` answer a refusal in
 * their own compatibility shape (see the controller), so the rules and their localized messages live
 * in TopUpService, where a wrong type gets the same clear message as a wrong value.
 */
export class AmountDto {
  @ApiProperty({
    type: 'integer',
    description: 'whole number ≥ MinTopUp: units (dollars) in currency display mode, else quota',
    example: 10,
  })
  @Allow()
  amount?: unknown;
  @ApiPropertyOptional({ type: String, description: 'accepted and ignored' }) @Allow() top_up_code?: unknown;
}

export class PayDto extends AmountDto {
  @ApiProperty({ type: String, description: 'a `type` of the PayMethods option', example: 'zfb' })
  @Allow()
  payment_method?: unknown;
}

export class CompleteTopUpDto {
  @ApiProperty({ type: String, description: 'the order number of a pending top-up' })
  @Allow()
  trade_no?: unknown;
}
