import { Body, Controller, Delete, Get, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChannelStatus } from '../../database/entities';
import { AdminOnly, RootOnly } from '../../common/http/access';
import { ChannelManageService } from './channel-manage.service';
import {
  BatchTagDto,
  ChannelIdsDto,
  ChannelStatusBatchDto,
  ChannelStatusDto,
  CreateChannelDto,
  EditTagDto,
  TagDto,
  UpdateChannelDto,
} from './channel.dto';
import { ApiEnvelope, BOOLEAN, INTEGER, objectOf, STRING, STRINGS } from '../../common/http/api-envelope';
import { BuiltinModel } from './channel-manage.service';
import { CHANNEL_PAGE, ChannelTagRow, ChannelView } from './channel.view';
import type { UnknownObject as Raw } from '../../common/json';

/**
 * Channel administration (admins). Keys are write-only: every answer shows `key: ""`, except root's
 * explicit reveal of one key under a step-up check.
 */
@ApiTags('channels')
@Controller('api/channel')
export class ChannelController {
  constructor(private readonly channels: ChannelManageService) {}

  @Get()
  @AdminOnly()
  @ApiOperation({
    summary:
      'Paged channels: ?p, page_size, id_sort, tag_mode, status, type, group → {items, total, page, page_size, type_counts}',
  })
  @ApiEnvelope(CHANNEL_PAGE, { models: [ChannelView, ChannelTagRow] })
  list(@Query() query: Raw) {
    return this.channels.list(query);
  }

  @Get('search')
  @AdminOnly()
  @ApiOperation({
    summary: 'Search by keyword (id, name, tag, base URL), group and model; same shape as the list',
  })
  @ApiEnvelope(CHANNEL_PAGE, { models: [ChannelView, ChannelTagRow] })
  search(@Query() query: Raw) {
    return this.channels.search(query);
  }

  @Get('models')
  @AdminOnly()
  @ApiOperation({ summary: "Every channel type's built-in models: [{id, object: 'model', owned_by}]" })
  @ApiEnvelope([BuiltinModel])
  models() {
    return this.channels.builtinModels();
  }

  @Get('models_enabled')
  @AdminOnly()
  @ApiOperation({ summary: 'Model names served by enabled channels: ["model", ...]' })
  @ApiEnvelope(STRINGS)
  modelsEnabled() {
    return this.channels.enabledModels();
  }

  @Post()
  @AdminOnly()
  @ApiOperation({ summary: 'Creates a channel, or one channel per key line with mode "batch" → {id, ids}' })
  @ApiEnvelope(objectOf({ id: INTEGER, ids: { type: 'array', items: INTEGER } }))
  create(@Body() body: CreateChannelDto) {
    return this.channels.create(body);
  }

  @Put()
  @AdminOnly()
  @ApiOperation({ summary: 'Updates a channel by id (absent fields unchanged, empty key keeps the key)' })
  @ApiEnvelope(ChannelView)
  update(@Body() body: UpdateChannelDto) {
    return this.channels.update(body);
  }

  @Delete('disabled')
  @AdminOnly()
  @ApiOperation({ summary: 'Deletes every disabled channel → number deleted' })
  @ApiEnvelope(INTEGER, 'channels deleted')
  removeDisabled() {
    return this.channels.removeDisabled();
  }

  @Post('batch')
  @AdminOnly()
  @ApiOperation({ summary: 'Deletes the channels {ids} → number deleted' })
  @ApiEnvelope(INTEGER, 'channels deleted')
  removeMany(@Body() body: ChannelIdsDto) {
    return this.channels.removeMany(body?.ids);
  }

  @Post('status/batch')
  @AdminOnly()
  @ApiOperation({ summary: 'Enables (1) or disables (2) the channels {ids} → number changed' })
  @ApiEnvelope(INTEGER, 'channels changed')
  setStatuses(@Body() body: ChannelStatusBatchDto) {
    return this.channels.setStatuses(body?.ids, body?.status);
  }

  @Post(':id/status')
  @AdminOnly()
  @ApiOperation({ summary: 'Enables (1) or disables (2) a channel → true when its status changed' })
  @ApiEnvelope(BOOLEAN)
  setStatus(@Param('id', ParseIntPipe) id: number, @Body() body: ChannelStatusDto) {
    return this.channels.setStatus(id, body?.status);
  }

  @Post('fix')
  @AdminOnly()
  @ApiOperation({ summary: 'Rebuilds the abilities of every channel → {success, fails}' })
  @ApiEnvelope(objectOf({ success: INTEGER, fails: INTEGER }))
  fix() {
    return this.channels.fixAbilities();
  }

  @Post('tag/disabled')
  @AdminOnly()
  @ApiOperation({ summary: 'Disables every channel of {tag} → number of channels' })
  @ApiEnvelope(INTEGER, 'channels changed')
  disableTag(@Body() body: TagDto) {
    return this.channels.setTagStatus(body?.tag, ChannelStatus.ManuallyDisabled);
  }

  @Post('tag/enabled')
  @AdminOnly()
  @ApiOperation({ summary: 'Enables every channel of {tag} → number of channels' })
  @ApiEnvelope(INTEGER, 'channels changed')
  enableTag(@Body() body: TagDto) {
    return this.channels.setTagStatus(body?.tag, ChannelStatus.Enabled);
  }

  @Put('tag')
  @AdminOnly()
  @ApiOperation({
    summary:
      'Edits every channel of {tag}: new_tag ("" dissolves), model_mapping, models, groups, priority, weight',
  })
  @ApiEnvelope(INTEGER, 'channels changed')
  editTag(@Body() body: EditTagDto) {
    return this.channels.editTag(body);
  }

  @Post('batch/tag')
  @AdminOnly()
  @ApiOperation({ summary: 'Sets {tag} on the channels {ids} → number tagged' })
  @ApiEnvelope(INTEGER, 'channels changed')
  batchTag(@Body() body: BatchTagDto) {
    return this.channels.batchTag(body?.ids, body?.tag);
  }

  @Post('copy/:id')
  @AdminOnly()
  @ApiOperation({
    summary: 'Copies a channel (?suffix=, default "_复制"; ?reset_balance=, default true) → {id}',
  })
  @ApiEnvelope(objectOf({ id: INTEGER }))
  copy(
    @Param('id', ParseIntPipe) id: number,
    @Query('suffix') suffix?: string,
    @Query('reset_balance') reset?: string,
  ) {
    return this.channels.copy(id, suffix, reset);
  }

  @Post(':id/key')
  @RootOnly()
  @ApiOperation({ summary: 'The channel key in clear → {key} (root, step-up; recorded in the audit trail)' })
  @ApiEnvelope(objectOf({ key: STRING }))
  revealKey(@Param('id', ParseIntPipe) id: number) {
    return this.channels.revealKey(id);
  }

  @Get(':id')
  @AdminOnly()
  @ApiOperation({ summary: 'One channel (key empty)' })
  @ApiEnvelope(ChannelView)
  get(@Param('id', ParseIntPipe) id: number) {
    return this.channels.get(id);
  }

  @Delete(':id')
  @AdminOnly()
  @ApiOperation({ summary: 'Deletes a channel and its abilities' })
  @ApiEnvelope(null)
  async remove(@Param('id', ParseIntPipe) id: number) {
    await this.channels.remove(id);
  }
}
