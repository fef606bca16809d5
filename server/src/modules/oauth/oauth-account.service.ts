import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { AppError, fail } from '../../common/app-error';
import { CryptoService } from '../../common/crypto.service';
import { isUniqueViolation } from '../../common/db-errors';
import { User, UserStatus } from '../../database/entities';
import { AuthService, LoginResult, loginResult } from '../auth';
import { SecondFactorGate, TwoFactorChallenge } from '../auth';
import { OptionService } from '../option';
import { UserCacheService } from '../user';
import { checkEmail, DISPLAY_NAME_MAX, USERNAME_MAX } from '../user';
import { UserService } from '../user';
import { IdentityKind, PROVIDER_LABEL, ProviderIdentity } from './oauth.types';

/** The user column holding each kind of identity (each has a unique index). */
const COLUMN = {
  github: 'github_id',
  oidc: 'oidc_id',
  linuxdo: 'linux_do_id',
  wechat: 'wechat_id',
  telegram: 'telegram_id',
} as const satisfies Record<IdentityKind, keyof User>;

/** The createAccount field of each kind. */
const NEW_USER_FIELD = {
  github: 'githubId',
  oidc: 'oidcId',
  linuxdo: 'linuxDoId',
  wechat: 'wechatId',
  telegram: 'telegramId',
} as const satisfies Record<IdentityKind, string>;

/** Generated usernames: the prefix, then random lowercase letters and digits up to 12 characters. */
const USERNAME_PREFIX: Record<IdentityKind, string> = {
  github: 'github_',
  oidc: 'oidc_',
  linuxdo: 'linuxdo_',
  wechat: 'wechat_',
  telegram: 'tg_',
};
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const NAME_SAFE = /^[A-Za-z0-9_.-]+$/;

/**
 * Signs in with, signs up with, and binds third-party identities. Sign-up goes through the same
 * createAccount as password registration (new-user quota, invitation rewards and their logs).
 */
@Injectable()
export class OAuthAccountService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly auth: AuthService,
    private readonly users: UserService,
    private readonly userCache: UserCacheService,
    private readonly secondFactor: SecondFactorGate,
    private readonly options: OptionService,
  ) {}

  /**
   * Signs the browser in as the owner of `identity`. Without an owner a new account is created when
   * `mayRegister` and RegisterEnabled allow it (with the invitation code `aff`), else refused.
   */
  async signIn(
    req: FastifyRequest,
    reply: FastifyReply,
    kind: IdentityKind,
    identity: ProviderIdentity,
    opts: { aff?: string; mayRegister: boolean },
  ): Promise<LoginResult | TwoFactorChallenge> {
    let user = await this.owner(kind, identity.id);
    if (!user) {
      if (!opts.mayRegister) throw fail('telegram_not_bound');
      if (!this.options.bool('RegisterEnabled')) throw fail('register_disabled');
      user = await this.register(kind, identity, opts.aff ?? '');
    }
    if (user.deleted_at) throw fail('oauth_user_deleted');
    if (user.status !== UserStatus.Enabled) throw fail('oauth_user_banned');
    return this.secondFactor.complete(req, reply, user, loginResult(user));
  }

  /** Binds `identity` to user `userId`; refused when another account holds it. Binding again is a no-op. */
  async bind(userId: number, kind: IdentityKind, identity: ProviderIdentity): Promise<void> {
    const holder = await this.owner(kind, identity.id);
    if (holder && holder.id !== userId)
      throw fail('oauth_bound_elsewhere', { provider: PROVIDER_LABEL[kind] });
    if (holder) return;
    try {
      await this.ds.getRepository(User).update({ id: userId }, { [COLUMN[kind]]: identity.id });
    } catch (e) {
      // Another account bound it in the meantime (the column's unique index decided).
      if (isUniqueViolation(e)) throw fail('oauth_bound_elsewhere', { provider: PROVIDER_LABEL[kind] });
      throw e;
    }
    this.userCache.invalidate(userId);
  }

  private owner(kind: IdentityKind, id: string): Promise<User | null> {
    return this.ds.getRepository(User).findOneBy({ [COLUMN[kind]]: id });
  }

  private async register(kind: IdentityKind, identity: ProviderIdentity, aff: string): Promise<User> {
    const inviter = aff ? await this.auth.findInviter(aff) : null;
    let email = await this.usableEmail(identity.email);
    for (let attempt = 0; attempt < 5; attempt++) {
      const username = await this.freeUsername(kind, attempt === 0 ? identity.username : undefined);
      try {
        return await this.auth.createAccount({
          username,
          passwordHash: '',
          email,
          inviterId: inviter?.id ?? 0,
          displayName: displayNameOf(identity, username),
          [NEW_USER_FIELD[kind]]: identity.id,
        });
      } catch (e) {
        if (!(e instanceof AppError) || (e.key !== 'username_taken' && e.key !== 'email_taken')) throw e;
        // A concurrent first sign-in of the same identity won the race: sign in to that account.
        const winner = await this.owner(kind, identity.id);
        if (winner) return winner;
        if (e.key === 'email_taken') email = null;
      }
    }
    throw fail('oauth_username_unavailable');
  }

  /** The provider's own name when it is a free, plain name of at most 12 characters; else a generated one. */
  private async freeUsername(kind: IdentityKind, preferred?: string): Promise<string> {
    if (preferred && preferred.length <= USERNAME_MAX && NAME_SAFE.test(preferred)) {
      if (!(await this.users.usernameTaken(preferred))) return preferred;
    }
    const prefix = USERNAME_PREFIX[kind];
    return prefix + CryptoService.randomString(USERNAME_MAX - prefix.length, LOWER_ALNUM);
  }

  /** A verified address from the provider, kept only when it is valid and no account uses it yet. */
  private async usableEmail(raw: string | null | undefined): Promise<string | null> {
    if (!raw) return null;
    let email: string;
    try {
      email = checkEmail(raw);
    } catch {
      return null;
    }
    return (await this.users.emailTaken(email)) ? null : email;
  }
}

function displayNameOf(identity: ProviderIdentity, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  const name = (identity.displayName ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return [...name].slice(0, DISPLAY_NAME_MAX).join('') || fallback;
}
