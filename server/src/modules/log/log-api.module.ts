import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { DashboardModule } from '../dashboard/dashboard.module';
import { PricingModule } from '../pricing/pricing.module';
import { ReportModule } from '../report/report.module';
import { LogController, UserSummaryController } from './log.controller';
import { LogExportController } from './log-export.controller';
import { LogExportService } from './log-export.service';
import { LogQueryService } from './log-query.service';
import { LogModule } from './log.module';
import { ManageLogInterceptor } from './manage-log.interceptor';

/**
 * The console's usage screens: the log routes (lists and exports, plus the log's user popup and the
 * management logs of channel administration), the pricing page, the dashboard and the reports.
 * Separate from LogModule, which the modules that write logs import.
 */
@Module({
  imports: [LogModule, PricingModule, DashboardModule, ReportModule],
  controllers: [LogController, LogExportController, UserSummaryController],
  providers: [
    LogQueryService,
    LogExportService,
    { provide: APP_INTERCEPTOR, useClass: ManageLogInterceptor },
  ],
})
export class LogApiModule {}
