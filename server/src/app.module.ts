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
import { AuthModule } from './modules/auth';
import { ChannelModule } from './modules/channel';
import { ChannelOpsModule } from './modules/channel-ops';
import { LogModule } from './modules/log';
import { LogApiModule } from './modules/log';
import { DashboardModule } from './modules/dashboard';
import { PricingModule } from './modules/pricing';
import { ReportModule } from './modules/report';
import { OptionModule } from './modules/option';
import { SetupModule } from './modules/setup';
import { StatusModule } from './modules/status';
import { TokenModule } from './modules/token';
import { UserModule } from './modules/user';
import { RelayModule } from './modules/relay';
import { BillingModule } from './modules/billing';
import { BudgetModule } from './modules/budget';
import { RedemptionModule } from './modules/redemption';
import { OAuthModule } from './modules/oauth';
import { TaskModule } from './modules/task';
import { MetricsModule } from './modules/metrics';
import { SecurityModule } from './modules/security';

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
        ThrottlerModule.forRootAsync({
          useFactory: async () => ({
            throttlers: [
              {
                name: 'auth',
                ttl: config.loginRateLimit.ttlSeconds * 1000,
                limit: config.loginRateLimit.limit,
              },
            ],
            // Shared by every node through Redis when REDIS_CONN_STRING is set.
            storage: await throttlerStorage(config),
          }),
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
