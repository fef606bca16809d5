import { Body, Controller, Delete, Get, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChannelStatus } from '../../database/entities';
import { AdminOnly, RootOnly } from '../../common/http/access';
import { ChannelManageService } from './channel-manage.service';
import { BatchTagDto, ChannelIdsDto, CreateChannelDto, EditTagDto, TagDto, UpdateChannelDto } from './channel.dto';

type Raw = Record<string, unknown>;

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
  list(@Query() query: Raw) {
    return this.channels.list(query);
  }

  @Get('search')
  @AdminOnly()
  @ApiOperation({ summary: 'Search by keyword (id, name, tag, base URL), group and model; same shape as the list' })
  search(@Query() query: Raw) {
    return this.channels.search(query);
  }

  @Get('models')
  @AdminOnly()
  @ApiOperation({ summary: "Every channel type's built-in models: [{id, object: 'model', owned_by}]" })
  models() {
    return this.channels.builtinModels();
  }

  @Get('models_enabled')
  @AdminOnly()
  @ApiOperation({ summary: 'Model names served by enabled channels: ["model", ...]' })
  modelsEnabled() {
    return this.channels.enabledModels();
  }

  @Post()
  @AdminOnly()
  @ApiOperation({ summary: 'Creates a channel, or one channel per key line with mode "batch" → {id, ids}' })
  create(@Body() body: CreateChannelDto) {
    return this.channels.create((body ?? {}) as unknown as Raw);
  }

  @Put()
  @AdminOnly()
  @ApiOperation({ summary: 'Updates a channel by id (absent fields unchanged, empty key keeps the key)' })
  update(@Body() body: UpdateChannelDto) {
    return this.channels.update((body ?? {}) as unknown as Raw);
  }

  @Delete('disabled')
  @AdminOnly()
  @ApiOperation({ summary: 'Deletes every disabled channel → number deleted' })
  removeDisabled() {
    return this.channels.removeDisabled();
  }

  @Post('batch')
  @AdminOnly()
  @ApiOperation({ summary: 'Deletes the channels {ids} → number deleted' })
  removeMany(@Body() body: ChannelIdsDto) {
    return this.channels.removeMany(body?.ids);
  }

  @Post('fix')
  @AdminOnly()
  @ApiOperation({ summary: 'Rebuilds the abilities of every channel → {success, fails}' })
  fix() {
    return this.channels.fixAbilities();
  }

  @Post('tag/disabled')
  @AdminOnly()
  @ApiOperation({ summary: 'Disables every channel of {tag} → number of channels' })
  disableTag(@Body() body: TagDto) {
    return this.channels.setTagStatus(body?.tag, ChannelStatus.ManuallyDisabled);
  }

  @Post('tag/enabled')
  @AdminOnly()
  @ApiOperation({ summary: 'Enables every channel of {tag} → number of channels' })
  enableTag(@Body() body: TagDto) {
    return this.channels.setTagStatus(body?.tag, ChannelStatus.Enabled);
  }

  @Put('tag')
  @AdminOnly()
  @ApiOperation({
    summary: 'Edits every channel of {tag}: new_tag ("" dissolves), model_mapping, models, groups, priority, weight',
  })
  editTag(@Body() body: EditTagDto) {
    return this.channels.editTag((body ?? {}) as unknown as Raw);
  }

  @Post('batch/tag')
  @AdminOnly()
  @ApiOperation({ summary: 'Sets {tag} on the channels {ids} → number tagged' })
  batchTag(@Body() body: BatchTagDto) {
    return this.channels.batchTag(body?.ids, body?.tag);
  }

  @Post('copy/:id')
  @AdminOnly()
  @ApiOperation({ summary: 'Copies a channel (?suffix=, default "_复制"; ?reset_balance=, default true) → {id}' })
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
  revealKey(@Param('id', ParseIntPipe) id: number) {
    return this.channels.revealKey(id);
  }

  @Get(':id')
  @AdminOnly()
  @ApiOperation({ summary: 'One channel (key empty)' })
  get(@Param('id', ParseIntPipe) id: number) {
    return this.channels.get(id);
  }

  @Delete(':id')
  @AdminOnly()
  @ApiOperation({ summary: 'Deletes a channel and its abilities' })
  async remove(@Param('id', ParseIntPipe) id: number) {
    await this.channels.remove(id);
  }
}
