import { Global, Module } from '@nestjs/common';
import { CacheBus } from './cache-bus';
import { CacheResyncService } from './cache-resync.service';
import { CryptoService } from './crypto.service';
import { RedisBusService } from './redis-bus.service';
import { SqliteCheckpoints } from '../database/sqlite-checkpoints.service';

@Global()
@Module({
  providers: [CacheBus, CacheResyncService, CryptoService, RedisBusService, SqliteCheckpoints],
  exports: [CacheBus, CacheResyncService, CryptoService, RedisBusService, SqliteCheckpoints],
})
export class CommonModule {}
