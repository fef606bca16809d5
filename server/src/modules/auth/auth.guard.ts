import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AppError, forbidden, unauthorized } from '../../common/app-error';
import { CryptoService } from '../../common/crypto.service';
import { UserStatus } from '../../database/entities';
import { SetupService } from '../setup';
import { UserCacheService, UserSnapshot } from '../user';
import { ACCESS_LEVEL, AccessLevel, BEFORE_SETUP } from '../../common/http/access';
import { SessionService } from './session.service';
import { StepUpService } from './step-up.service';

/**
 * The one guard of the management API: the first-run gate, then who the caller is (session cookie or
 * access token, each with the New-Api-User header), then whether the role suffices, then the account
 * checks (second factor required of admins, fresh step-up for sensitive actions). Routes without an
 * access level are treated as needing a signed-in user.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionService,
    private readonly users: UserCacheService,
    private readonly crypto: CryptoService,
    private readonly setup: SetupService,
    private readonly stepUp: StepUpService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    if (!this.reflector.getAllAndOverride<boolean>(BEFORE_SETUP, targets) && !(await this.setup.isDone())) {
      throw new AppError('setup_required');
    }
    const level = this.reflector.getAllAndOverride<AccessLevel>(ACCESS_LEVEL, targets) ?? 1;
    if (level === 'public') return true;

    const { snap, via, sid } = await this.identify(req);
    if (snap.deleted) throw unauthorized('user_deleted');
    if (snap.status !== UserStatus.Enabled) throw forbidden('user_banned');
    if (snap.role < level) throw forbidden();
    req.auth = {
      id: snap.id,
      username: snap.username,
      role: snap.role,
      status: snap.status,
      group: snap.group,
      via,
      sessionId: sid,
    };
    await this.stepUp.enforce(`${context.getClass().name}.${context.getHandler().name}`, req, level);
    return true;
  }

  /** Who is calling (session cookie or access token, plus New-Api-User); throws AppError. Used by the playground too. */
  async identify(
    req: FastifyRequest,
  ): Promise<{ snap: UserSnapshot; via: 'session' | 'token'; sid?: string }> {
    const header = req.headers['new-api-user'];
    const claimed =
      typeof header === 'string' && /^\d{1,10}$/.test(header.trim()) ? Number(header.trim()) : null;
    const authz = req.headers.authorization;
    if (typeof authz === 'string' && authz.trim()) {
      // Access tokens come as `Authorization: <token>` or `Authorization: Bearer <token>`.
      const token = authz.trim().replace(/^Bearer\s+/i, '');
      if (token.length < 16 || token.length > 128) throw unauthorized('access_token_invalid');
      const snap = await this.users.findByAccessToken(this.crypto.keyedHash(token));
      if (!snap) throw unauthorized('access_token_invalid');
      if (claimed === null) throw unauthorized('new_api_user_missing');
      if (claimed !== snap.id) throw unauthorized('new_api_user_mismatch');
      return { snap, via: 'token' };
    }
    const session = this.sessions.read(req);
    if (!session) throw unauthorized('not_logged_in');
    if (claimed === null) throw unauthorized('new_api_user_missing');
    if (claimed !== session.uid) throw unauthorized('new_api_user_mismatch');
    const snap = await this.users.get(session.uid);
    if (!snap || this.sessions.endedFor(session, snap)) throw unauthorized('not_logged_in');
    return { snap, via: 'session', sid: session.sid };
  }
}
