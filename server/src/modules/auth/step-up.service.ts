import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error';
import { nowSeconds } from '../../common/time';
import { Role, User } from '../../database/entities';
import { OPTION_INDEX } from '../option';
import { OptionService } from '../option';

export const STEP_UP_COOKIE = 'step_up';
/** How long a password or second-factor check covers sensitive actions. */
export const STEP_UP_SECONDS = 600;

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
  // second factors
  'TwoFactorController.setupTotp': true,
  'TwoFactorController.disableTotp': true,
  'TwoFactorController.recoveryCodes': true,
  'PasskeyController.registerOptions': true,
  'PasskeyController.remove': true,
  'TwoFactorAdminController.reset': true,
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
 * (the sign-in itself, or `POST /api/user/step_up`) is recorded in a signed cookie naming the user, so
 * it holds on every node and survives the fresh session a password change gives the browser; it is
 * worth nothing without a valid session of that user. Access tokens are exempt from the check (they
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

  /** Unix seconds until which the caller counts as freshly checked (0: not at all). */
  freshUntil(req: FastifyRequest): number {
    const uid = req.auth?.id;
    const raw = req.cookies?.[STEP_UP_COOKIE];
    const unsigned = raw ? req.unsignCookie(raw) : null;
    const m = unsigned?.valid && unsigned.value ? /^(\d{1,10})\.(\d{1,12})$/.exec(unsigned.value) : null;
    return m && uid !== undefined && Number(m[1]) === uid ? Number(m[2]) + STEP_UP_SECONDS : 0;
  }

  isFresh(req: FastifyRequest): boolean {
    return req.auth?.via === 'token' || this.freshUntil(req) >= nowSeconds();
  }

  /** Records a successful check of `uid` in this browser; answers until when it counts. */
  mark(req: FastifyRequest, reply: FastifyReply, uid: number): number {
    const now = nowSeconds();
    reply.setCookie(STEP_UP_COOKIE, `${uid}.${now}`, {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      secure: req.protocol === 'https',
      path: '/',
      maxAge: STEP_UP_SECONDS,
    });
    return now + STEP_UP_SECONDS;
  }
}
