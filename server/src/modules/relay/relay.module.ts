import { Module } from '@nestjs/common';
import { AuthModule } from '../auth';
import { BillingModule } from '../billing';
import { ChannelModule } from '../channel';
import { ContentLogModule, LogModule } from '../log';
import { MailModule } from '../mail';
import { OptionModule } from '../option';
import { UserModule } from '../user';
import { ChannelHealthService } from './channel-health.service';
import { ChannelTestService } from './channel-test.service';
import { RateLimitService } from './rate-limit.service';
import { RealtimeRelay } from './realtime/realtime-relay.service';
import { RelayCacheService } from './relay-cache.service';
import { RelayRoutes } from './relay-routes';
import { RelayService } from './relay.service';
import { ScopedLimitService } from './scoped-limit.service';
import { RelayAdmission } from './lifecycle/admission';
import { AttemptPlanner } from './lifecycle/attempt-plan';
import { Failover } from './lifecycle/failover';
import { ChannelAffinity } from './lifecycle/affinity';
import { ChannelProbe } from './lifecycle/probe';
import { Spending } from './lifecycle/spend';
import { UpstreamClient } from './upstream/upstream-client';

@Module({
  imports: [
    AuthModule,
    BillingModule,
    ChannelModule,
    ContentLogModule,
    LogModule,
    MailModule,
    OptionModule,
    UserModule,
  ],
  providers: [
    RelayCacheService,
    RelayAdmission,
    Spending,
    AttemptPlanner,
    ChannelAffinity,
    Failover,
    UpstreamClient,
    ChannelProbe,
    RelayService,
    RelayRoutes,
    ChannelHealthService,
    ChannelTestService,
    RateLimitService,
    ScopedLimitService,
    RealtimeRelay,
  ],
  // What relay/index.ts names for other modules.
  exports: [
    RelayRoutes,
    RelayService,
    RealtimeRelay,
    RelayCacheService,
    RelayAdmission,
    Spending,
    Failover,
    UpstreamClient,
    ChannelHealthService,
    ChannelTestService,
    RateLimitService,
  ],
})
export class RelayModule {}
