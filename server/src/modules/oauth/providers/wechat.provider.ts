import { Injectable, Logger } from '@nestjs/common';
import { fail } from '../../../common/app-error';
import { OptionService } from '../../option';
import { OAuthHttpService } from '../oauth-http.service';
import type { ProviderIdentity } from '../oauth.types';

/**
 * Scan-code sign-in through a WeChat server (the official-account bridge of this family of gateways):
 * the user sends a keyword to the official account and types the code it answers; the server turns
 * the code into the user's openid: `GET {WeChatServerAddress}/api/wechat/user?code=` with
 * `Authorization: {WeChatServerToken}` → `{success, message, data: openid}`.
 */
@Injectable()
export class WeChatProvider {
  private readonly logger = new Logger('WeChatAuth');

  constructor(
    private readonly options: OptionService,
    private readonly http: OAuthHttpService,
  ) {}

  async identify(code: unknown): Promise<ProviderIdentity> {
    const address = this.options.get('WeChatServerAddress');
    const token = this.options.get('WeChatServerToken');
    if (!address || !token) throw fail('oauth_not_configured', { provider: 'WeChat' });
    if (typeof code !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(code.trim()))
      throw fail('wechat_code_invalid');
    let status: number;
    let body: string;
    try {
      const res = await this.http.fetch(
        `${address}/api/wechat/user?code=${encodeURIComponent(code.trim())}`,
        {
          headers: { Authorization: token, Accept: 'application/json' },
        },
      );
      status = res.status;
      body = res.body;
    } catch (e) {
      this.logger.warn(`WeChat server unreachable: ${(e as Error).message}`);
      throw fail('wechat_server_failed');
    }
    let answer: { success?: unknown; data?: unknown };
    try {
      answer = JSON.parse(body) as typeof answer;
    } catch {
      answer = {};
    }
    if (
      status !== 200 ||
      typeof answer !== 'object' ||
      answer === null ||
      typeof answer.success !== 'boolean'
    ) {
      this.logger.warn(`WeChat server answered ${status}`);
      throw fail('wechat_server_failed');
    }
    const openid = answer.data;
    if (!answer.success || typeof openid !== 'string' || !openid || openid.length > 64)
      throw fail('wechat_code_invalid');
    return { id: openid };
  }
}
