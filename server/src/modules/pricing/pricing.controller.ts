import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { RawResponse } from '../../common/http/envelope';
import { UserStatus } from '../../database/entities';
import { AdminOnly, Public } from '../../common/http/access';
import { AuthGuard } from '../auth';
import type { UserSnapshot } from '../user';
import { PricingAnswer, PricingService } from './pricing.service';
import { ApiEnvelope, ApiRawAnswer, NUMBER, objectOf, STRING, STRINGS } from '../../common/http/api-envelope';

/** `GET /api/pricing`: outside the envelope, for client compatibility. */
const PRICING_ANSWER = objectOf({
  success: { type: 'boolean', enum: [true] },
  data: {
    type: 'array',
    items: objectOf({
      model_name: STRING,
      quota_type: { type: 'integer', enum: [0, 1], description: '0 pay per usage (ratios), 1 pay per call' },
      model_ratio: NUMBER,
      completion_ratio: NUMBER,
      model_price: { type: 'number', description: 'USD per call; 0 for pay-per-usage models' },
      enable_groups: STRINGS,
    }),
  },
  group_ratio: { type: 'object', additionalProperties: NUMBER, description: "the viewer's groups → ratio" },
  usable_group: {
    type: 'object',
    additionalProperties: STRING,
    description: "the viewer's groups → description",
  },
});

@ApiTags('pricing')
@Controller('api/pricing')
export class PricingController {
  constructor(
    private readonly pricing: PricingService,
    private readonly auth: AuthGuard,
  ) {}

  @Get()
  @Public()
  @RawResponse()
  @ApiOperation({
    summary:
      'Models of enabled channels with their prices → {success, data: [{model_name, quota_type, model_ratio, ' +
      'completion_ratio, model_price, enable_groups}], group_ratio, usable_group} (signed-in callers see their groups)',
  })
  @ApiRawAnswer(PRICING_ANSWER)
  async get(@Req() req: FastifyRequest): Promise<PricingAnswer> {
    return this.pricing.pricing(await this.viewer(req));
  }

  @Get('unpriced')
  @AdminOnly()
  @ApiOperation({
    summary:
      'Models of enabled channels the relay cannot price (same lookup as billing, prefixes included) → [name]',
  })
  @ApiEnvelope(STRINGS)
  unpriced(): Promise<string[]> {
    return this.pricing.unpriced();
  }

  /** The signed-in caller, if any; a visitor (or a failed sign-in) is priced as the default group. */
  private async viewer(req: FastifyRequest): Promise<UserSnapshot | null> {
    try {
      const { snap } = await this.auth.identify(req);
      return snap.deleted || snap.status !== UserStatus.Enabled ? null : snap;
    } catch {
      return null;
    }
  }
}
