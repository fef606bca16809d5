import { Module } from '@nestjs/common';
import { LogController, UserSummaryController } from './log.controller';
import { LogExportController } from './log-export.controller';
import { LogExportService } from './log-export.service';
import { LogQueryService } from './log-query.service';
import { LogModule } from './log.module';

/**
 * The console's log routes: lists and exports, plus the log's user popup. Separate from LogModule,
 * which the modules that write logs import.
 */
@Module({
  imports: [LogModule],
  controllers: [LogController, LogExportController, UserSummaryController],
  providers: [LogQueryService, LogExportService],
})
export class LogApiModule {}
