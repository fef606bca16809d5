import { ApiProperty } from '@nestjs/swagger';
import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CryptoService } from '../../common/crypto.service';
import { nowSeconds } from '../../common/time';
import type { User } from '../../database/entities';
import { SessionService } from './session.service';
import { StepUpService } from './step-up.service';

export const PENDING_COOKIE = 'signin_2fa';
/** How long a password-checked sign-in waits for its second factor. */
export const PENDING_SECONDS = 300;

export interface PendingSignIn {
  userId: number;
  expiresAt: number;
  nonce: string;
}

/** A sign-in that passed its first factor and waits for the second. */
export class TwoFactorChallenge {
  @ApiProperty({ enum: [true] }) require_2fa!: true;
}

/**
 * The last step of every sign-in (password or third-party): a user with a second factor gets, instead
 * of a session, a short-lived signed cookie naming the user; `POST /api/user/login/2fa` (a code) or a
 * passkey assertion turns it into a session.
 */
@Injectable()
export class SecondFactorGate {
  constructor(
    private readonly sessions: SessionService,
    private readonly stepUp: StepUpService,
  ) {}

  complete<T>(req: FastifyRequest, reply: FastifyReply, user: User, result: T): T | TwoFactorChallenge {
    if (!user.two_factor) {
      this.open(req, reply, user.id);
      return result;
    }
    const expires = nowSeconds() + PENDING_SECONDS;
    reply.setCookie(PENDING_COOKIE, `${user.id}.${expires}.${CryptoService.randomString(16)}`, {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      secure: req.protocol === 'https',
      path: '/api',
      maxAge: PENDING_SECONDS,
    });
    return { require_2fa: true };
  }

  /** The user id of the waiting sign-in, or null (none, forged or expired). */
  pendingUser(req: FastifyRequest): number | null {
    return this.pending(req)?.userId ?? null;
  }

  /** The waiting sign-in: its user, its expiry and the random part that names it; null when none. */
  pending(req: FastifyRequest): PendingSignIn | null {
    const raw = req.cookies?.[PENDING_COOKIE];
    if (!raw) return null;
    const unsigned = req.unsignCookie(raw);
    if (!unsigned.valid || !unsigned.value) return null;
    const m = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9]{16})$/.exec(unsigned.value);
    if (!m || Number(m[2]) < nowSeconds()) return null;
    return { userId: Number(m[1]), expiresAt: Number(m[2]), nonce: m[3] };
  }

  /** Ends a waiting sign-in without a session (its attempts are used up). */
  abandon(reply: FastifyReply): void {
    reply.clearCookie(PENDING_COOKIE, { path: '/api' });
  }

  /** Finishes a waiting sign-in: the session is issued and the waiting cookie dropped. */
  finish(req: FastifyRequest, reply: FastifyReply, userId: number): void {
    reply.clearCookie(PENDING_COOKIE, { path: '/api' });
    this.open(req, reply, userId);
  }

  /** A new session; its sign-in counts as a fresh check for sensitive actions. */
  private open(req: FastifyRequest, reply: FastifyReply, userId: number): void {
    const session = this.sessions.issue(req, reply, userId);
    this.stepUp.mark(req, reply, userId, session.sid);
  }
}
