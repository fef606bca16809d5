import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error';
import { readStepUpCookie, setStepUpCookie, STEP_UP_SECONDS } from '../../common/http/step-up-cookie';
import { nowSeconds } from '../../common/time';
import { Role, User } from '../../database/entities';
import { OPTION_INDEX } from '../option';
import { OptionService } from '../option';

export { STEP_UP_COOKIE, STEP_UP_SECONDS } from '../../common/http/step-up-cookie';

import type { UnknownObject as Raw } from '../../common/json';
const body = (req: FastifyRequest): Raw =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Raw) : {};

/**
 * The sensitive actions, keyed by controller class and handler: they need a password or second-factor
 * check (a sign-in counts) within the last STEP_UP_SECONDS. A function decides per request.
 */
export const STEP_UP_ROUTES: Record<string, true | ((req: FastifyRequest) => boolean)> = {
  // the own account
  'UserController.updateSelf': (req) => typeof body(req).password === 'string' && body(req).password !== '',
  'UserController.deleteSelf': true,
  'UserController.token': true,
  'AuthController.bindEmail': true,
  // third-party sign-ins (the public ones check in OAuthCallerService: Telegram, and the bind states)
  'OAuthController.wechatBind': true,
  // second factors
  'TwoFactorController.setupTotp': true,
  'TwoFactorController.disableTotp': true,
  'TwoFactorController.recoveryCodes': true,
  'PasskeyController.registerOptions': true,
  'PasskeyController.remove': true,
  'TwoFactorAdminController.reset': true,
  'TwoFactorAdminController.resetTotp': true,
  'TwoFactorAdminController.resetPasskeys': true,
  'TokenController.reveal': true,
  // admins on other users, root on admins
  'UserController.update': (req) => typeof body(req).password === 'string' && body(req).password !== '',
  'UserController.manage': (req) => ['promote', 'demote', 'delete'].includes(String(body(req).action)),
  // operators
  'ChannelController.revealKey': true,
  'OptionController.update': (req) => OPTION_INDEX.get(String(body(req).key))?.rootOnly === true,
};

const matches = (rule: true | ((req: FastifyRequest) => boolean) | undefined, req: FastifyRequest) =>
  rule === true || (typeof rule === 'function' && rule(req));

/**
 * What an access token can never do, keyed like STEP_UP_ROUTES: change the account's credentials or
 * sign-in methods (second factors, passkeys, third-party bindings, e-mail, password, the access token
 * itself) or end the account. A token is the credential of unattended integrations and reaches the
 * API; these need a browser session (and its step-up check). Refused with 403 `session_required`.
 */
export const SESSION_ONLY_ROUTES: Record<string, true | ((req: FastifyRequest) => boolean)> = {
  'UserController.updateSelf': (req) => body(req).password !== undefined,
  'UserController.deleteSelf': true,
  'UserController.token': true,
  'AuthController.bindEmail': true,
  'TwoFactorController.setupTotp': true,
  'TwoFactorController.enableTotp': true,
  'TwoFactorController.disableTotp': true,
  'TwoFactorController.recoveryCodes': true,
  'TwoFactorController.confirm': true,
  'PasskeyController.registerOptions': true,
  'PasskeyController.register': true,
  'PasskeyController.remove': true,
  'PasskeyController.stepUpOptions': true,
  'PasskeyController.confirm': true,
  'OAuthController.wechatBind': true,
};

/**
 * Step-up checks: whether the session's last password or second-factor check is recent. Each check
 * (the sign-in itself, or `POST /api/user/step_up`) is recorded in a signed cookie naming the session
 * and the user, so it holds on every node; it is worth nothing in any other session (the fresh
 * session a password change gives the browser gets the proof carried over). Access tokens are exempt from the check (they
 * are made under one and are the credential of unattended integrations) but refused outright on
 * SESSION_ONLY_ROUTES.
 */
@Injectable()
export class StepUpService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly options: OptionService,
  ) {}

  /**
   * The account checks of an authenticated call (the AuthGuard's last step): with AdminTwoFactorRequired
   * on, admin routes need the admin to have a second factor; sensitive actions need a fresh check.
   */
  async enforce(handlerKey: string, req: FastifyRequest, level: number): Promise<void> {
    const auth = req.auth;
    if (!auth) return;
    if (level >= Role.Admin && this.options.bool('AdminTwoFactorRequired')) {
      const row = await this.ds
        .getRepository(User)
        .findOne({ select: { id: true, two_factor: true }, where: { id: auth.id } });
      if (!row?.two_factor) throw new AppError('two_factor_enrolment_required', {}, HttpStatus.FORBIDDEN);
    }
    if (auth.via === 'token' && matches(SESSION_ONLY_ROUTES[handlerKey], req))
      throw new AppError('session_required', {}, HttpStatus.FORBIDDEN);
    if (this.required(handlerKey, req) && !this.isFresh(req))
      throw new AppError('step_up_required', {}, HttpStatus.FORBIDDEN);
  }

  required(handlerKey: string, req: FastifyRequest): boolean {
    return matches(STEP_UP_ROUTES[handlerKey], req);
  }

  /**
   * Unix seconds until which the caller counts as freshly checked (0: not at all). The proof must be
   * of this user and of this very session: one made in another session (signed out since, say) is
   * worth nothing here.
   */
  freshUntil(req: FastifyRequest): number {
    return req.auth ? this.freshUntilFor(req, req.auth.id, req.auth.sessionId) : 0;
  }

  /** The same for a caller identified outside the guard (the public binding routes). */
  freshUntilFor(req: FastifyRequest, uid: number, sid: string | undefined): number {
    const proof = readStepUpCookie(req);
    if (!sid || !proof || proof.uid !== uid || proof.sid !== sid) return 0;
    return proof.at + STEP_UP_SECONDS;
  }

  /** Refuses (403 step_up_required) a session caller whose last check is not recent. */
  assertFresh(req: FastifyRequest, uid: number, via: 'session' | 'token', sid: string | undefined): void {
    if (via === 'session' && this.freshUntilFor(req, uid, sid) < nowSeconds())
      throw new AppError('step_up_required', {}, HttpStatus.FORBIDDEN);
  }

  isFresh(req: FastifyRequest): boolean {
    return req.auth?.via === 'token' || this.freshUntil(req) >= nowSeconds();
  }

  /**
   * Records a successful check of `uid` in the session `sid` (by default the caller's); answers until
   * when it counts.
   */
  mark(req: FastifyRequest, reply: FastifyReply, uid: number, sid = req.auth?.sessionId): number {
    const now = nowSeconds();
    if (!sid) return 0;
    setStepUpCookie(req, reply, { sid, uid, at: now });
    return now + STEP_UP_SECONDS;
  }
}
