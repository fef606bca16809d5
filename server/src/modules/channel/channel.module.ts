import { Module } from '@nestjs/common';
import { ChannelManageService } from './channel-manage.service';
import { ChannelController } from './channel.controller';
import { ChannelService } from './channel.service';

@Module({
  controllers: [ChannelController],
  providers: [ChannelService, ChannelManageService],
  exports: [ChannelService],
})
export class ChannelModule {}
