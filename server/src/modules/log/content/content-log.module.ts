import { Module } from '@nestjs/common';
import { OptionModule } from '../../option';
import { ContentLogController } from './content-log.controller';
import { ContentLogService } from './content-log.service';

/** Content logs (opt-in request and answer bodies): the relay's capture, the purge and the read route. */
@Module({
  imports: [OptionModule],
  controllers: [ContentLogController],
  providers: [ContentLogService],
  exports: [ContentLogService],
})
export class ContentLogModule {}
