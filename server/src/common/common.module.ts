import { Global, Module } from '@nestjs/common';
import { CacheBus } from './cache-bus';
import { CryptoService } from './crypto.service';
import { RedisBusService } from './redis-bus.service';

@Global()
@Module({ providers: [CacheBus, CryptoService, RedisBusService], exports: [CacheBus, CryptoService, RedisBusService] })
export class CommonModule {}
