import { ApiProperty } from '@nestjs/swagger';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { fail } from '../../common/app-error';
import { CryptoService } from '../../common/crypto.service';
import { WithMessage } from '../../common/http/envelope';
import { translate } from '../../common/i18n/messages';
import { CodePurpose, LogType, Role, User, UserStatus } from '../../database/entities';
import { LogService } from '../log';
import { MailService } from '../mail';
import { OptionService } from '../option';
import { formatQuota } from '../user';
import { UserCacheService } from '../user';
import { checkEmail, checkPassword, checkUsername } from '../user';
import { UserService } from '../user';
import { SecondFactorGate, TwoFactorChallenge } from './second-factor.service';
import { SessionService } from './session.service';
import { TurnstileService } from './turnstile.service';
import { VerificationService } from './verification.service';

export class LoginResult {
  @ApiProperty() id!: number;
  @ApiProperty() username!: string;
  @ApiProperty() display_name!: string;
  @ApiProperty() role!: number;
  @ApiProperty() status!: number;
  @ApiProperty() group!: string;
}

/** What a sign-in answers with (password or third-party). */
export function loginResult(user: User): LoginResult {
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name,
    role: user.role,
    status: user.status,
    group: user.group,
  };
}

/** A bcrypt hash of a random string: compared against when the user does not exist, to even out timing. */
const DUMMY_HASH = '$2b$10$CwTycUXWue0Thq9StjUM0uJ8.xg2N8Pz2ZqBk1Ke1r4sYjJ6o6ZUi';
const LEGACY_DEFAULT_PASSWORD = '123456';

@Injectable()
export class AuthService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly users: UserService,
    private readonly userCache: UserCacheService,
    private readonly options: OptionService,
    private readonly sessions: SessionService,
    private readonly turnstile: TurnstileService,
    private readonly verification: VerificationService,
    private readonly mail: MailService,
    private readonly logs: LogService,
    private readonly secondFactor: SecondFactorGate,
  ) {}

  async login(
    req: FastifyRequest,
    reply: FastifyReply,
    body: { username?: unknown; password?: unknown },
    turnstileToken: unknown,
  ): Promise<LoginResult | TwoFactorChallenge | WithMessage<LoginResult>> {
    if (!this.options.bool('PasswordLoginEnabled')) throw fail('password_login_disabled');
    const name = typeof body.username === 'string' ? body.username.trim() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    if (!name || !password || name.length > 254 || password.length > 256) throw fail('login_fields_required');
    await this.turnstile.verify(turnstileToken, req.ip);
    const repo = this.ds.getRepository(User);
    // No account name or address holds control characters (PostgreSQL would fail on a NUL; MySQL's
    // collation would ignore it and match another name): such a name matches nobody.
    // eslint-disable-next-line no-control-regex
    const plausible = !/[\u0000-\u001f\u007f]/.test(name);
    const user = !plausible
      ? null
      : ((await repo.findOneBy({ username: name })) ??
        (name.includes('@') ? await repo.findOneBy({ email: name.toLowerCase() }) : null));
    const ok = await this.users.verifyPassword(password, user?.password || DUMMY_HASH);
    if (!user || !ok || user.deleted_at || user.status !== UserStatus.Enabled) throw fail('login_failed');
    const result = this.secondFactor.complete(req, reply, user, loginResult(user));
    if ('require_2fa' in result) return result;
    if (user.role >= Role.Root && password === LEGACY_DEFAULT_PASSWORD) {
      return new WithMessage(result, translate('default_password_warning', req.lang ?? 'zh'));
    }
    return result;
  }

  async logout(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const session = this.sessions.read(req);
    if (session) await this.sessions.revoke(session.sid, reply);
    else reply.clearCookie('session', { path: '/' });
  }

  async register(
    req: FastifyRequest,
    body: {
      username?: unknown;
      password?: unknown;
      password2?: unknown;
      email?: unknown;
      verification_code?: unknown;
      aff_code?: unknown;
    },
    turnstileToken: unknown,
  ): Promise<void> {
    if (!this.options.bool('RegisterEnabled')) throw fail('register_disabled');
    if (!this.options.bool('PasswordRegisterEnabled')) throw fail('password_register_disabled');
    if (!body.username || !body.password) throw fail('username_password_required');
    const username = checkUsername(body.username);
    const password = checkPassword(body.password);
    if (body.password2 !== undefined && body.password2 !== password) throw fail('password_mismatch');
    await this.turnstile.verify(turnstileToken, req.ip);
    let email: string | null = null;
    if (this.options.bool('EmailVerificationEnabled')) {
      email = checkEmail(body.email);
      if (!body.verification_code) throw fail('code_required');
      this.verification.checkEmailAllowed(email);
      if (await this.users.emailTaken(email)) throw fail('email_taken');
    }
    if (await this.users.usernameTaken(username)) throw fail('username_taken');
    const inviter = await this.findInviter(body.aff_code);
    const passwordHash = await this.users.hashPassword(password);
    if (email) await this.verification.consume(CodePurpose.Register, email, body.verification_code);
    await this.createAccount({ username, passwordHash, email, inviterId: inviter?.id ?? 0 });
  }

  /**
   * Creates an account with the sign-up grants: QuotaForNewUser, plus QuotaForInvitee when invited, and
   * the inviter's reward. Shared by password and third-party sign-up.
   */
  async createAccount(input: {
    username: string;
    passwordHash: string;
    email?: string | null;
    inviterId?: number;
    githubId?: string;
    oidcId?: string;
    wechatId?: string;
    telegramId?: string;
    linuxDoId?: string;
    displayName?: string;
  }): Promise<User> {
    const forNew = this.options.num('QuotaForNewUser');
    const forInvitee = input.inviterId ? this.options.num('QuotaForInvitee') : 0;
    const forInviter = input.inviterId ? this.options.num('QuotaForInviter') : 0;
    const fmt = (q: number) =>
      formatQuota(q, this.options.num('QuotaPerUnit'), this.options.bool('DisplayInCurrencyEnabled'));
    return this.ds.transaction(async (m) => {
      const user = await this.users.insertUser(m, { ...input, quota: forNew + forInvitee });
      if (forNew > 0) {
        await this.logs.record(
          {
            userId: user.id,
            username: user.username,
            type: LogType.System,
            content: { key: 'log_text_register_bonus', params: { amount: fmt(forNew) } },
            quota: forNew,
          },
          m,
        );
      }
      if (input.inviterId) {
        if (forInvitee > 0) {
          await this.logs.record(
            {
              userId: user.id,
              username: user.username,
              type: LogType.System,
              content: { key: 'log_text_invitee_bonus', params: { amount: fmt(forInvitee) } },
              quota: forInvitee,
            },
            m,
          );
        }
        await this.users.rewardInviter(m, input.inviterId, forInviter, user.username);
      }
      return user;
    });
  }

  async findInviter(code: unknown): Promise<User | null> {
    if (typeof code !== 'string' || !/^[A-Za-z0-9]{1,32}$/.test(code.trim())) return null;
    const inviter = await this.ds.getRepository(User).findOneBy({ aff_code: code.trim() });
    return inviter && !inviter.deleted_at ? inviter : null;
  }

  // ---- email codes ----

  async sendVerificationCode(
    req: FastifyRequest,
    emailRaw: unknown,
    purposeRaw: unknown,
    turnstileToken: unknown,
  ): Promise<void> {
    const email = checkEmail(emailRaw);
    await this.turnstile.verify(turnstileToken, req.ip);
    this.verification.checkEmailAllowed(email);
    const purpose = purposeRaw === 'bind' ? CodePurpose.Bind : CodePurpose.Register;
    if (await this.users.emailTaken(email)) throw fail('email_taken');
    if (!this.mail.configured()) throw fail('smtp_not_configured');
    const code = await this.verification.issue(purpose, email);
    const system = this.options.get('SystemName');
    try {
      await this.mail.send(
        email,
        `${system} 邮箱验证 / email verification`,
        `<p>您的验证码为 / Your verification code: <strong>${code}</strong></p><p>验证码 3 分钟内有效 / valid for 3 minutes.</p>`,
      );
    } catch (e) {
      await this.verification.discard(purpose, email, code);
      throw e;
    }
  }

  /** Always answers success, so it cannot be used to learn which addresses have accounts. */
  async sendPasswordReset(req: FastifyRequest, emailRaw: unknown, turnstileToken: unknown): Promise<void> {
    const email = checkEmail(emailRaw);
    await this.turnstile.verify(turnstileToken, req.ip);
    // An instance that cannot send mail says so: it is the same answer for every address, so it
    // reveals nothing about accounts.
    if (!this.mail.configured()) throw fail('smtp_not_configured');
    // Never build the link from the request's Host header (anyone could point it at their own site).
    // Checked before the account lookup, so the answer still reveals nothing about the address.
    const base = this.options.get('ServerAddress');
    if (!base) throw fail('server_address_required');
    const user = await this.ds.getRepository(User).findOneBy({ email });
    if (!user || user.deleted_at) return;
    let token: string;
    try {
      token = await this.verification.issue(CodePurpose.Reset, email, 'token');
    } catch {
      return; // a resend within 30 s: silently ignored, same answer as any other case
    }
    const link = `${base}/user/reset?email=${encodeURIComponent(email)}&token=${encodeURIComponent(token)}`;
    const system = this.options.get('SystemName');
    await this.mail
      .send(
        email,
        `${system} 密码重置 / password reset`,
        `<p>点击链接重置密码 / Open this link to reset your password:</p><p><a href="${link}">${link}</a></p><p>链接 3 分钟内有效 / valid for 3 minutes.</p>`,
      )
      .catch(() => this.verification.discard(CodePurpose.Reset, email, token)); // same answer; a retry may send again
  }

  /** Completes a reset: the link's token is consumed and a new random password is returned. */
  async resetPassword(body: { email?: unknown; token?: unknown }): Promise<string> {
    if (typeof body.email !== 'string' || typeof body.token !== 'string') throw fail('reset_link_invalid');
    let email: string;
    try {
      email = checkEmail(body.email);
    } catch {
      throw fail('reset_link_invalid');
    }
    await this.verification.consume(CodePurpose.Reset, email, body.token, 'reset_link_invalid');
    const user = await this.ds.getRepository(User).findOneBy({ email });
    if (!user || user.deleted_at) throw fail('reset_link_invalid');
    const password = CryptoService.randomString(12);
    // Whoever held a session with the old password (or took over the account) is signed out.
    await this.ds
      .getRepository(User)
      .update(
        { id: user.id },
        { password: await this.users.hashPassword(password), sessions_valid_after: Date.now() },
      );
    this.userCache.invalidate(user.id);
    return password;
  }

  async bindEmail(userId: number, emailRaw: unknown, code: unknown): Promise<void> {
    const email = checkEmail(emailRaw);
    if (!code) throw fail('code_required');
    this.verification.checkEmailAllowed(email);
    if (await this.users.emailTaken(email, userId)) throw fail('email_taken');
    await this.verification.consume(CodePurpose.Bind, email, code);
    try {
      await this.ds.getRepository(User).update({ id: userId }, { email });
    } catch {
      throw fail('email_taken');
    }
    this.userCache.invalidate(userId);
  }
}
