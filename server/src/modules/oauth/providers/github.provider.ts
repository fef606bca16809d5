import { Inject, Injectable, Logger } from '@nestjs/common';
import { Passport } from 'passport';
import { Profile, Strategy as GitHubStrategy } from 'passport-github2';
import { fail } from '../../../common/app-error';
import { OptionService } from '../../option';
import { OAUTH_ENDPOINTS, OAuthEndpoints } from '../oauth-endpoints';
import type { ProviderIdentity } from '../oauth.types';
import { runStrategy } from './run-strategy';

/**
 * GitHub sign-in: passport-github2's strategy exchanges the code and reads the profile, run inside
 * the API call that carries the code (the state was checked before). The identity is GitHub's
 * numeric user id, which never changes (a login name can be renamed and taken by someone else).
 */
@Injectable()
export class GitHubProvider {
  private readonly logger = new Logger('GitHubOAuth');
  private readonly passport = new Passport();

  constructor(
    private readonly options: OptionService,
    @Inject(OAUTH_ENDPOINTS) private readonly endpoints: OAuthEndpoints,
  ) {}

  /** The browser's authorization URL (GitHub sends the user back to the app's registered callback). */
  authorizeUrl(state: string): string {
    const url = new URL(this.endpoints.github.authorize);
    url.searchParams.set('client_id', this.credentials().clientID);
    url.searchParams.set('state', state);
    url.searchParams.set('scope', 'user:email');
    return url.toString();
  }

  async identify(code: string): Promise<ProviderIdentity> {
    const { clientID, clientSecret } = this.credentials();
    const strategy = new GitHubStrategy(
      {
        clientID,
        clientSecret,
        callbackURL: '', // none: GitHub uses the callback registered for the app
        authorizationURL: this.endpoints.github.authorize,
        tokenURL: this.endpoints.github.token,
        userProfileURL: this.endpoints.github.user,
        userEmailURL: this.endpoints.github.emails,
      },
      (_access: string, _refresh: string, profile: Profile, done: (err: null, user: Profile) => void) =>
        done(null, profile),
    );
    let profile: Profile;
    try {
      profile = await runStrategy<Profile>(this.passport, strategy, { code });
    } catch (e) {
      this.logger.warn(`code exchange failed: ${(e as Error).message}`);
      throw fail('oauth_exchange_failed', { provider: 'GitHub' });
    }
    if (!/^\d{1,20}$/.test(profile.id ?? '')) throw fail('oauth_profile_invalid', { provider: 'GitHub' });
    const json: Record<string, unknown> = (profile as { _json?: Record<string, unknown> })._json ?? {};
    return {
      id: profile.id,
      username: typeof profile.username === 'string' ? profile.username : undefined,
      displayName: typeof profile.displayName === 'string' ? profile.displayName : undefined,
      // GitHub shows only a verified address as the public email of a profile.
      email: typeof json.email === 'string' ? json.email : null,
    };
  }

  private credentials(): { clientID: string; clientSecret: string } {
    const clientID = this.options.get('GitHubClientId');
    const clientSecret = this.options.get('GitHubClientSecret');
    if (!clientID || !clientSecret) throw fail('oauth_not_configured', { provider: 'GitHub' });
    return { clientID, clientSecret };
  }
}
