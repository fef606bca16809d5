import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fail } from '../../common/app-error';
import { WithMessage } from '../../common/http/envelope';
import { nowSeconds } from '../../common/time';
import type { LoginResult } from '../auth';
import type { TwoFactorChallenge } from '../auth';
import { OptionService } from '../option';
import { UserSnapshot } from '../user';
import { OAuthAccountService } from './oauth-account.service';
import { OAuthCallerService } from './oauth-caller.service';
import { OAuthStateService } from './oauth-state.service';
import { ENABLED_OPTION, IdentityKind, PROVIDER_LABEL, RedirectProvider, StateRecord } from './oauth.types';
import { OneTimeStore } from './one-time-store';
import { GitHubProvider } from './providers/github.provider';
import { LinuxDoProvider } from './providers/linuxdo.provider';
import { OidcProvider } from './providers/oidc.provider';
import { TELEGRAM_AUTH_MAX_AGE_SECONDS, verifyTelegramLogin } from './providers/telegram';
import { WeChatProvider } from './providers/wechat.provider';

/** `GET /api/oauth/state?provider=…`: the state and everything the browser needs to go to the provider. */
export class StateAnswer {
  @ApiProperty() state!: string;
  /** The provider's authorization page with every parameter set (absent for telegram). */
  @ApiPropertyOptional() authorize_url?: string;
  /** Where the provider sends the browser back (the console's /oauth/{type} route). */
  @ApiPropertyOptional() redirect_uri?: string;
  @ApiPropertyOptional() scope?: string;
  /** OIDC only. */
  @ApiPropertyOptional() nonce?: string;
  @ApiPropertyOptional() code_challenge?: string;
  @ApiPropertyOptional({ enum: ['S256'] }) code_challenge_method?: 'S256';
}

export interface CallbackQuery {
  code?: unknown;
  state?: unknown;
  iss?: unknown;
}

const STATE_PROVIDERS = ['github', 'oidc', 'linuxdo', 'telegram'] as const;
type StateProvider = (typeof STATE_PROVIDERS)[number];
const AFF_FORMAT = /^[A-Za-z0-9]{1,32}$/;
export const BIND_MESSAGE = 'bind';

/** The sign-in flows of part 1: redirect providers (GitHub, OIDC, LinuxDO), WeChat codes, Telegram widget. */
@Injectable()
export class OAuthService {
  constructor(
    private readonly options: OptionService,
    private readonly states: OAuthStateService,
    private readonly caller: OAuthCallerService,
    private readonly accounts: OAuthAccountService,
    private readonly store: OneTimeStore,
    private readonly github: GitHubProvider,
    private readonly oidc: OidcProvider,
    private readonly linuxdo: LinuxDoProvider,
    private readonly wechat: WeChatProvider,
  ) {}

  /**
   * Without `provider`: the bare state string (as the spec's console builds the provider URL itself).
   * With `provider`: a StateAnswer; for OIDC it carries the PKCE challenge and nonce, and a state
   * issued without `provider=oidc` is refused by the OIDC callback.
   */
  async state(
    req: FastifyRequest,
    reply: FastifyReply,
    affRaw: unknown,
    providerRaw: unknown,
  ): Promise<string | StateAnswer> {
    const aff = typeof affRaw === 'string' && AFF_FORMAT.test(affRaw.trim()) ? affRaw.trim() : '';
    const uid = (await this.caller.optional(req, { binding: true }))?.id ?? 0;
    if (providerRaw === undefined || providerRaw === '') {
      return this.states.issue(req, reply, { uid, aff, provider: '' });
    }
    if (typeof providerRaw !== 'string' || !(STATE_PROVIDERS as readonly string[]).includes(providerRaw)) {
      throw fail('oauth_provider_unknown');
    }
    const provider = providerRaw as StateProvider;
    this.ensureEnabled(provider);
    switch (provider) {
      case 'github': {
        this.github.authorizeUrl('probe'); // refuses before a state is stored when not configured
        const state = await this.states.issue(req, reply, { uid, aff, provider });
        return { state, authorize_url: this.github.authorizeUrl(state), scope: 'user:email' };
      }
      case 'linuxdo': {
        const redirectUri = this.redirectUri(req, provider);
        this.linuxdo.authorizeUrl('probe', redirectUri);
        const state = await this.states.issue(req, reply, { uid, aff, provider, redirectUri });
        return {
          state,
          authorize_url: this.linuxdo.authorizeUrl(state, redirectUri),
          redirect_uri: redirectUri,
        };
      }
      case 'oidc': {
        const redirectUri = this.redirectUri(req, provider);
        const secrets = await this.oidc.secrets();
        const state = await this.states.issue(req, reply, { uid, aff, provider, redirectUri, ...secrets });
        const start = await this.oidc.start(state, redirectUri, secrets);
        return {
          state,
          authorize_url: start.authorizeUrl,
          redirect_uri: redirectUri,
          scope: start.scope,
          nonce: start.nonce,
          code_challenge: start.challenge,
          code_challenge_method: 'S256',
        };
      }
      case 'telegram':
        return { state: await this.states.issue(req, reply, { uid, aff, provider }) };
    }
  }

  /**
   * `GET /api/oauth/{github,oidc,linuxdo}?code&state`: a signed-in caller binds the identity
   * (`message: "bind"`); anybody else signs in as its owner, or signs up when it has none.
   */
  async callback(
    req: FastifyRequest,
    reply: FastifyReply,
    provider: RedirectProvider,
    query: CallbackQuery,
  ): Promise<LoginResult | TwoFactorChallenge | WithMessage<null>> {
    this.ensureEnabled(provider);
    const me = await this.caller.optional(req);
    const record = await this.states.consume(req, query.state, provider, me ? me.id : null);
    const state = query.state as string;
    const code = typeof query.code === 'string' ? query.code : '';
    if (!code || code.length > 2048) throw fail('oauth_code_missing');
    const identity =
      provider === 'github'
        ? await this.github.identify(code)
        : provider === 'oidc'
          ? await this.oidc.identify(
              code,
              state,
              typeof query.iss === 'string' ? query.iss : undefined,
              record,
            )
          : await this.linuxdo.identify(code, state, record.redirectUri ?? this.redirectUri(req, provider));
    return this.finish(req, reply, me, provider, identity, record);
  }

  async wechatLogin(
    req: FastifyRequest,
    reply: FastifyReply,
    code: unknown,
    affRaw: unknown,
  ): Promise<LoginResult | TwoFactorChallenge> {
    this.ensureEnabled('wechat');
    const identity = await this.wechat.identify(code);
    const aff = typeof affRaw === 'string' && AFF_FORMAT.test(affRaw.trim()) ? affRaw.trim() : '';
    return this.accounts.signIn(req, reply, 'wechat', identity, { aff, mayRegister: true });
  }

  async wechatBind(userId: number, code: unknown): Promise<WithMessage<null>> {
    this.ensureEnabled('wechat');
    const identity = await this.wechat.identify(code);
    await this.accounts.bind(userId, 'wechat', identity);
    return new WithMessage(null, BIND_MESSAGE);
  }

  /** The widget's payload signs in the account it is bound to (Telegram never creates accounts). */
  async telegramLogin(
    req: FastifyRequest,
    reply: FastifyReply,
    fields: Record<string, unknown>,
  ): Promise<LoginResult | TwoFactorChallenge> {
    const login = await this.verifyTelegram(fields);
    return this.accounts.signIn(req, reply, 'telegram', login, { mayRegister: false });
  }

  /**
   * Binds the widget's Telegram account to the signed-in user. Called by the console (New-Api-User
   * header), or reached by the widget's redirect, which must then carry a state issued to this user.
   */
  async telegramBind(
    req: FastifyRequest,
    user: UserSnapshot,
    redirect: boolean,
    fields: Record<string, unknown>,
  ): Promise<void> {
    this.ensureEnabled('telegram');
    if (redirect && (fields.state === undefined || fields.state === ''))
      throw fail('telegram_bind_state_required');
    if (fields.state !== undefined) await this.states.consume(req, fields.state, 'telegram', user.id);
    const login = await this.verifyTelegram(fields);
    await this.accounts.bind(user.id, 'telegram', login);
  }

  private async verifyTelegram(fields: Record<string, unknown>) {
    this.ensureEnabled('telegram');
    const token = this.options.get('TelegramBotToken');
    if (!token) throw fail('oauth_not_configured', { provider: 'Telegram' });
    const login = verifyTelegramLogin(fields, token, nowSeconds());
    if (!(await this.store.claim(`tg:${login.hash}`, TELEGRAM_AUTH_MAX_AGE_SECONDS + 120))) {
      throw fail('telegram_auth_used');
    }
    return login;
  }

  private async finish(
    req: FastifyRequest,
    reply: FastifyReply,
    me: UserSnapshot | null,
    kind: IdentityKind,
    identity: Parameters<OAuthAccountService['bind']>[2],
    record: StateRecord,
  ): Promise<LoginResult | TwoFactorChallenge | WithMessage<null>> {
    if (me) {
      await this.accounts.bind(me.id, kind, identity);
      return new WithMessage(null, BIND_MESSAGE);
    }
    return this.accounts.signIn(req, reply, kind, identity, { aff: record.aff, mayRegister: true });
  }

  private ensureEnabled(kind: IdentityKind): void {
    if (!this.options.bool(ENABLED_OPTION[kind]))
      throw fail('oauth_disabled', { provider: PROVIDER_LABEL[kind] });
  }

  /** The console's return route: ServerAddress when set, else the address this request came to. */
  private redirectUri(req: FastifyRequest, provider: RedirectProvider): string {
    const base = this.options.get('ServerAddress') || `${req.protocol}://${req.host}`;
    return `${base.replace(/\/+$/, '')}/oauth/${provider}`;
  }
}
