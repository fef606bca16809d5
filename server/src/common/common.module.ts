import { Global, Module } from '@nestjs/common';
import { CacheBus } from './cache-bus';
import { CryptoService } from './crypto.service';

@Global()
@Module({ providers: [CacheBus, CryptoService], exports: [CacheBus, CryptoService] })
export class CommonModule {}
