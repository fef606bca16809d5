import { Inject, Injectable, Logger } from '@nestjs/common';
import { fail } from '../../../common/app-error';
import { OptionService } from '../../option';
import { OAUTH_ENDPOINTS, OAuthEndpoints } from '../oauth-endpoints';
import { OAuthHttpService } from '../oauth-http.service';
import type { ProviderIdentity } from '../oauth.types';
import { openidClient } from '../openid-client.loader';

/**
 * LinuxDO Connect, a plain OAuth 2 provider: openid-client runs the authorization-code grant
 * (client credentials in a Basic header), then the access token reads LinuxDO's user endpoint.
 * Inactive or silenced accounts, and accounts below LinuxDOMinimumTrustLevel, are refused.
 */
@Injectable()
export class LinuxDoProvider {
  private readonly logger = new Logger('LinuxDOOAuth');

  constructor(
    private readonly options: OptionService,
    private readonly http: OAuthHttpService,
    @Inject(OAUTH_ENDPOINTS) private readonly endpoints: OAuthEndpoints,
  ) {}

  authorizeUrl(state: string, redirectUri: string): string {
    const url = new URL(this.endpoints.linuxdo.authorize);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.credentials().clientId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('state', state);
    return url.toString();
  }

  async identify(code: string, state: string, redirectUri: string): Promise<ProviderIdentity> {
    const { clientId, clientSecret } = this.credentials();
    const oc = await openidClient();
    const ep = this.endpoints.linuxdo;
    const config = new oc.Configuration(
      {
        issuer: new URL(ep.authorize).origin,
        authorization_endpoint: ep.authorize,
        token_endpoint: ep.token,
      },
      clientId,
      undefined,
      oc.ClientSecretBasic(clientSecret),
    );
    config[oc.customFetch] = this.http.asFetch;
    config.timeout = 15;
    if (ep.token.startsWith('http:') || ep.user.startsWith('http:')) oc.allowInsecureRequests(config);
    const callback = new URL(redirectUri);
    callback.search = '';
    callback.searchParams.set('code', code);
    callback.searchParams.set('state', state);
    let user: Record<string, unknown>;
    try {
      const tokens = await oc.authorizationCodeGrant(config, callback, { expectedState: state });
      const res = await oc.fetchProtectedResource(config, tokens.access_token, new URL(ep.user), 'GET');
      if (!res.ok) throw new Error(`user endpoint answered ${res.status}`);
      user = (await res.json()) as Record<string, unknown>;
    } catch (e) {
      this.logger.warn(`code exchange failed: ${(e as Error).message}`);
      throw fail('oauth_exchange_failed', { provider: 'LinuxDO' });
    }
    const id = typeof user?.id === 'number' || typeof user?.id === 'string' ? String(user.id) : '';
    if (!/^\d{1,20}$/.test(id)) throw fail('oauth_profile_invalid', { provider: 'LinuxDO' });
    if (user.active === false || user.silenced === true) throw fail('linuxdo_user_inactive');
    const minimum = this.options.num('LinuxDOMinimumTrustLevel');
    const level = typeof user.trust_level === 'number' ? user.trust_level : 0;
    if (level < minimum) throw fail('linuxdo_trust_level_low', { level: minimum });
    return {
      id,
      username: typeof user.username === 'string' ? user.username : undefined,
      displayName: typeof user.name === 'string' && user.name ? user.name : undefined,
      email: null,
    };
  }

  private credentials(): { clientId: string; clientSecret: string } {
    const clientId = this.options.get('LinuxDOClientId');
    const clientSecret = this.options.get('LinuxDOClientSecret');
    if (!clientId || !clientSecret) throw fail('oauth_not_configured', { provider: 'LinuxDO' });
    return { clientId, clientSecret };
  }
}
