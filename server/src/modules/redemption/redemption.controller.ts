import { Body, Controller, Delete, Get, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../common/http/request-context';
import { AdminOnly, CurrentUser, UserOnly } from '../../common/http/access';
import { CreateRedemptionDto, RedeemDto, UpdateRedemptionDto } from './redemption.dto';
import { RedemptionService } from './redemption.service';
import { ApiEnvelope, ApiPage, INTEGER, STRINGS } from '../../common/http/api-envelope';
import { RedemptionView } from './redemption.view';
import type { UnknownObject as Raw } from '../../common/json';

/** Redemption code administration (admins). */
@ApiTags('redemptions')
@Controller('api/redemption')
export class RedemptionController {
  constructor(private readonly codes: RedemptionService) {}

  @Get()
  @AdminOnly()
  @ApiOperation({ summary: 'Paged codes, newest first (?p, page_size, status = 1|2|3|expired)' })
  @ApiPage(RedemptionView)
  list(@Query() query: Raw) {
    return this.codes.list(query);
  }

  @Get('search')
  @AdminOnly()
  @ApiOperation({
    summary: 'Search by keyword (id, part of the name or of the code) and status; same shape as the list',
  })
  @ApiPage(RedemptionView)
  search(@Query() query: Raw) {
    return this.codes.search(query);
  }

  @Post()
  @AdminOnly()
  @ApiOperation({ summary: 'Creates `count` codes {name, quota, count, expired_time} → ["<code>", ...]' })
  @ApiEnvelope(STRINGS, 'the new codes')
  create(@CurrentUser() me: AuthUser, @Body() body: CreateRedemptionDto) {
    return this.codes.create(me, body);
  }

  @Put()
  @AdminOnly()
  @ApiOperation({
    summary:
      'Edits an unused code {id, name, quota, expired_time}; ?status_only=true sets {id, status} (1 or 2) of a code not used',
  })
  @ApiEnvelope(RedemptionView)
  update(@Body() body: UpdateRedemptionDto, @Query('status_only') statusOnly?: string) {
    return this.codes.update(body, statusOnly === 'true' || statusOnly === '1');
  }

  @Delete('invalid')
  @AdminOnly()
  @ApiOperation({ summary: 'Deletes every used, disabled or expired code → number deleted' })
  @ApiEnvelope(INTEGER, 'codes deleted')
  removeInvalid() {
    return this.codes.removeInvalid();
  }

  @Get(':id')
  @AdminOnly()
  @ApiOperation({ summary: 'One code' })
  @ApiEnvelope(RedemptionView)
  get(@Param('id', ParseIntPipe) id: number) {
    return this.codes.get(id);
  }

  @Delete(':id')
  @AdminOnly()
  @ApiOperation({ summary: 'Deletes a code' })
  @ApiEnvelope(null)
  async remove(@Param('id', ParseIntPipe) id: number) {
    await this.codes.remove(id);
  }
}

/** Redeeming a code: the wallet's first card. */
@ApiTags('wallet')
@Controller('api/user')
export class RedeemController {
  constructor(private readonly codes: RedemptionService) {}

  @Post('topup')
  @UserOnly()
  @ApiOperation({ summary: 'Redeems a code {key} → the quota credited' })
  @ApiEnvelope(INTEGER, 'the quota credited')
  redeem(@CurrentUser() me: AuthUser, @Body() body: RedeemDto) {
    return this.codes.redeem(me, body);
  }
}
