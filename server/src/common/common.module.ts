import { Global, Module } from '@nestjs/common';
import { CacheBus } from './cache-bus';
import { CacheResyncService } from './cache-resync.service';
import { CryptoService } from './crypto.service';
import { RedisBusService } from './redis-bus.service';

@Global()
@Module({
  providers: [CacheBus, CacheResyncService, CryptoService, RedisBusService],
  exports: [CacheBus, CacheResyncService, CryptoService, RedisBusService],
})
export class CommonModule {}
