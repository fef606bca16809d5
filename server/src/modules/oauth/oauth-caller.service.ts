import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../../common/app-error';
import { UserStatus } from '../../database/entities';
import { AuthGuard } from '../auth';
import { SessionService } from '../auth';
import { StepUpService } from '../auth';
import { UserCacheService, UserSnapshot } from '../user';

/** Who is calling a sign-in route, which is public: nobody, or a signed-in user who is binding. */
@Injectable()
export class OAuthCallerService {
  constructor(
    private readonly guard: AuthGuard,
    private readonly sessions: SessionService,
    private readonly users: UserCacheService,
    private readonly stepUp: StepUpService,
  ) {}

  /**
   * The signed-in, enabled caller (session cookie or access token, with New-Api-User), or null. A
   * caller who is not fully signed in, banned or deregistered is treated as anonymous: the callback
   * then signs in instead of binding. An access token is refused (403 `session_required`); with
   * `binding` (a state that will bind an identity) a session whose last check is not recent is
   * refused (403 `step_up_required`).
   */
  async optional(req: FastifyRequest, opts: { binding?: boolean } = {}): Promise<UserSnapshot | null> {
    if (req.headers['new-api-user'] === undefined && req.headers.authorization === undefined) return null;
    let caller: Awaited<ReturnType<AuthGuard['identify']>>;
    try {
      caller = await this.guard.identify(req);
    } catch {
      return null;
    }
    // An access token never binds a sign-in method (it reaches the API only).
    if (caller.via === 'token') throw forbidden('session_required');
    if (caller.snap.deleted || caller.snap.status !== UserStatus.Enabled) return null;
    if (opts.binding) this.stepUp.assertFresh(req, caller.snap.id, caller.via, caller.sid);
    return caller.snap;
  }

  /**
   * The caller of a bind that may arrive as a top-level browser redirect (no New-Api-User header can be
   * sent then): `redirect` is true in that case, and the caller must then prove the request came from
   * its own console with a state. Same refusals as the guard: 401 not signed in, 403 banned.
   */
  async binder(req: FastifyRequest): Promise<{ user: UserSnapshot; redirect: boolean }> {
    let snap: UserSnapshot | null;
    let sid: string | undefined;
    let redirect = false;
    if (req.headers['new-api-user'] !== undefined || req.headers.authorization !== undefined) {
      const caller = await this.guard.identify(req);
      if (caller.via === 'token') throw forbidden('session_required');
      snap = caller.snap;
      sid = caller.sid;
    } else {
      const session = this.sessions.read(req);
      if (!session) throw unauthorized('not_logged_in');
      snap = await this.users.get(session.uid);
      if (!snap || this.sessions.endedFor(session, snap)) throw unauthorized('not_logged_in');
      sid = session.sid;
      redirect = true;
    }
    if (snap.deleted) throw unauthorized('user_deleted');
    if (snap.status !== UserStatus.Enabled) throw forbidden('user_banned');
    // A new sign-in method for the account: only under a recent check of this session.
    this.stepUp.assertFresh(req, snap.id, 'session', sid);
    return { user: snap, redirect };
  }
}
