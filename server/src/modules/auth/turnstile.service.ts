import { Inject, Injectable, Logger } from '@nestjs/common';
import { request } from 'undici';
import { fail } from '../../common/app-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { OptionService } from '../option';

/** Server-side check of a Cloudflare Turnstile token, when the operator turned the check on. */
@Injectable()
export class TurnstileService {
  private readonly logger = new Logger('Turnstile');

  constructor(
    private readonly options: OptionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async verify(token: unknown, ip: string): Promise<void> {
    if (!this.options.bool('TurnstileCheckEnabled')) return;
    if (typeof token !== 'string' || !token) throw fail('turnstile_missing');
    if (token.length > 4096) throw fail('turnstile_failed');
    const body = new URLSearchParams({
      secret: this.options.get('TurnstileSecretKey'),
      response: token,
      remoteip: ip,
    });
    try {
      const res = await request(this.config.turnstileVerifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      const answer = (await res.body.json()) as { success?: boolean };
      if (answer.success !== true) throw fail('turnstile_failed');
    } catch (e) {
      if ((e as { key?: string }).key === 'turnstile_failed') throw e;
      this.logger.warn(`turnstile verification failed: ${(e as Error).message}`);
      throw fail('turnstile_failed');
    }
  }
}
