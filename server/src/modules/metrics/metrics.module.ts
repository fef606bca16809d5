import { Global, Module } from '@nestjs/common';
import { MetricsService } from './metrics.service';

/** Global: the relay, the caches and the HTTP layer record into the one MetricsService of the node. */
@Global()
@Module({
  providers: [MetricsService],
  exports: [MetricsService],
})
export class MetricsModule {}
