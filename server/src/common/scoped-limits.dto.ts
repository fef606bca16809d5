import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * The per-channel and per-token limits, shared by both write DTOs. Only whitelisted here: the ranges and
 * their localized messages live in scoped-limit-rules.ts.
 */
export class ScopedLimitsDto {
  @ApiPropertyOptional({ description: 'requests per minute, 0 to 1000000 (0 = no limit)' })
  @Allow()
  rpm_limit?: unknown;
  @ApiPropertyOptional({
    description: 'tokens (prompt + completion) per minute, 0 to 2000000000 (0 = no limit)',
  })
  @Allow()
  tpm_limit?: unknown;
  @ApiPropertyOptional({ description: 'requests in flight at once, 0 to 100000 (0 = no limit)' })
  @Allow()
  concurrency_limit?: unknown;
}
