import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { DashboardModule } from '../dashboard/dashboard.module';
import { PricingModule } from '../pricing/pricing.module';
import { LogController, UserSummaryController } from './log.controller';
import { LogQueryService } from './log-query.service';
import { LogModule } from './log.module';
import { ManageLogInterceptor } from './manage-log.interceptor';

/**
 * The console's usage screens: the log routes (plus the log's user popup and the management logs of
 * channel administration), the pricing page and the dashboard. Separate from LogModule, which the
 * modules that write logs import.
 */
@Module({
  imports: [LogModule, PricingModule, DashboardModule],
  controllers: [LogController, UserSummaryController],
  providers: [LogQueryService, { provide: APP_INTERCEPTOR, useClass: ManageLogInterceptor }],
})
export class LogApiModule {}
