import { DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from './common/common.module';
import { EnvelopeInterceptor } from './common/http/envelope';
import { throttlerStorage } from './common/throttler-storage';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { buildDataSourceOptions } from './database/data-source';
import { AuthModule } from './modules/auth/auth.module';
import { ChannelModule } from './modules/channel/channel.module';
import { ChannelOpsModule } from './modules/channel-ops/channel-ops.module';
import { LogModule } from './modules/log/log.module';
import { LogApiModule } from './modules/log/log-api.module';
import { DashboardModule } from './modules/dashboard/dashboard.module';
import { PricingModule } from './modules/pricing/pricing.module';
import { ReportModule } from './modules/report/report.module';
import { OptionModule } from './modules/option/option.module';
import { SetupModule } from './modules/setup/setup.module';
import { StatusModule } from './modules/status/status.module';
import { TokenModule } from './modules/token/token.module';
import { UserModule } from './modules/user/user.module';
import { RelayModule } from './modules/relay';
import { BillingModule } from './modules/billing/billing.module';
import { BudgetModule } from './modules/budget/budget.module';
import { RedemptionModule } from './modules/redemption/redemption.module';
import { OAuthModule } from './modules/oauth/oauth.module';
import { TaskModule } from './modules/task/task.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { SecurityModule } from './modules/security/security.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        CommonModule,
        MetricsModule,
        TypeOrmModule.forRoot({
          ...buildDataSourceOptions(config.database),
          // Only the master node migrates; slaves expect the schema to be there.
          migrationsRun: config.nodeType === 'master',
          migrationsTransactionMode: 'each',
        }),
        ThrottlerModule.forRoot({
          throttlers: [{ name: 'auth', ttl: config.loginRateLimit.ttlSeconds * 1000, limit: config.loginRateLimit.limit }],
          // Shared by every node through Redis when REDIS_CONN_STRING is set.
          storage: throttlerStorage(config),
        }),
        OptionModule,
        LogModule,
        LogApiModule,
        PricingModule,
        DashboardModule,
        ReportModule,
        UserModule,
        SetupModule,
        AuthModule,
        StatusModule,
        ChannelModule,
        TokenModule,
        BillingModule,
        BudgetModule,
        RelayModule,
        ChannelOpsModule,
        RedemptionModule,
        OAuthModule,
        TaskModule,
        SecurityModule,
      ],
      providers: [{ provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor }],
    };
  }
}
