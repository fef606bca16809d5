import { Module } from '@nestjs/common';
import { RelayModule } from '../relay';
import { ChannelOpsController } from './channel-ops.controller';
import { ChannelOpsService } from './channel-ops.service';

@Module({
  imports: [RelayModule],
  controllers: [ChannelOpsController],
  providers: [ChannelOpsService],
})
export class ChannelOpsModule {}
