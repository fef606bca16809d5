import { Body, Controller, Get, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../common/app-error';
import { RawResponse, WithMessage } from '../../common/http/envelope';
import { translate } from '../../common/i18n/messages';
import { AdminOnly } from '../../common/http/access';
import { ChannelTestService } from '../relay';
import { ChannelOpsService } from './channel-ops.service';
import { FetchModelsDto } from './channel-ops.dto';
import { UpstreamGroups } from './channel-ops.view';
import {
  ApiEnvelope,
  ApiRawAnswer,
  BOOLEAN,
  NUMBER,
  objectOf,
  STRING,
  STRINGS,
} from '../../common/http/api-envelope';

/** Channel tests, balances, upstream model lists and the upstream detection view (admins). */
@ApiTags('channels')
@Controller('api/channel')
export class ChannelOpsController {
  constructor(
    private readonly ops: ChannelOpsService,
    private readonly tests: ChannelTestService,
  ) {}

  @Get('test')
  @AdminOnly()
  @ApiOperation({ summary: 'Tests every channel not disabled by hand, in the background; one run at a time' })
  @ApiEnvelope(null)
  testAll(@Req() req: FastifyRequest) {
    if (this.tests.busy) throw new AppError('channel_ops_test_running');
    void this.tests.testAll();
    return new WithMessage(null, translate('channel_ops_test_started', req.lang ?? 'zh'));
  }

  @Get('test/:id')
  @AdminOnly()
  @RawResponse()
  @ApiOperation({
    summary:
      'Tests one channel (?model=, else test_model, else its first model) → {success, message, time (seconds)}',
  })
  @ApiRawAnswer(objectOf({ success: BOOLEAN, message: STRING, time: NUMBER }))
  async testOne(
    @Req() req: FastifyRequest,
    @Param('id', ParseIntPipe) id: number,
    @Query('model') model?: string,
  ) {
    const requested = typeof model === 'string' && model.trim() !== '' ? model.trim() : undefined;
    const result = await this.tests.testOne(id, requested);
    if (!result)
      return { success: false, message: translate('channel_not_found', req.lang ?? 'zh'), time: 0 };
    return result;
  }

  @Get('update_balance')
  @AdminOnly()
  @ApiOperation({
    summary: 'Updates the balance of every enabled channel that has a balance endpoint, in the background',
  })
  @ApiEnvelope(null)
  updateAllBalances(@Req() req: FastifyRequest) {
    if (!this.ops.updateAllBalances().started) throw new AppError('channel_ops_balance_running');
    return new WithMessage(null, translate('channel_ops_balance_started', req.lang ?? 'zh'));
  }

  @Get('update_balance/:id')
  @AdminOnly()
  @RawResponse()
  @ApiOperation({
    summary: "Asks the provider for the channel's balance and stores it → {success, message, balance}",
  })
  @ApiRawAnswer(objectOf({ success: BOOLEAN, message: STRING, balance: NUMBER }))
  async updateBalance(@Req() req: FastifyRequest, @Param('id', ParseIntPipe) id: number) {
    try {
      return { success: true, message: '', balance: await this.ops.updateBalance(id) };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return { success: false, message: translate(err.key, req.lang ?? 'zh', err.params), balance: 0 };
    }
  }

  @Get('fetch_models/:id')
  @AdminOnly()
  @ApiOperation({
    summary: 'The model ids the channel\'s provider lists, with the channel\'s key → ["model", ...]',
  })
  @ApiEnvelope(STRINGS)
  fetchModelsOf(@Param('id', ParseIntPipe) id: number) {
    return this.ops.fetchModelsOf(id);
  }

  @Post('fetch_models')
  @AdminOnly()
  @ApiOperation({
    summary: 'The model ids a provider lists for {base_url, type, key} (a channel not yet saved)',
  })
  @ApiEnvelope(STRINGS)
  fetchModels(@Body() body: FetchModelsDto) {
    return this.ops.fetchModels(body.type, body.base_url ?? '', body.key);
  }

  @Get('test_upstream/:id')
  @AdminOnly()
  @ApiOperation({
    summary:
      'Who called through the channel: {groups: [{group, first_seen, last_seen, client_types: [{client_type, count, first_seen, last_seen}]}]}',
  })
  @ApiEnvelope(UpstreamGroups)
  detectUpstream(@Param('id', ParseIntPipe) id: number) {
    return this.ops.detectUpstream(id);
  }
}
