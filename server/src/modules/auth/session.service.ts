import { Injectable, OnModuleInit } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CacheBus } from '../../common/cache-bus';
import { CryptoService } from '../../common/crypto.service';
import { nowSeconds } from '../../common/time';

export const SESSION_COOKIE = 'session';
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

export interface SessionClaims {
  sid: string;
  uid: number;
  iat: number;
}

/**
 * Sessions are signed HttpOnly cookies (`sid.uid.issued-at`, signed with SESSION_SECRET by
 * @fastify/cookie). Logout puts the session id on a revocation list until the cookie would expire;
 * the user's status and role are re-checked on every request, so a ban takes effect at once.
 */
@Injectable()
export class SessionService implements OnModuleInit {
  private readonly revoked = new Map<string, number>();

  constructor(private readonly bus: CacheBus) {}

  onModuleInit(): void {
    this.bus.on('sessions', (e) => {
      if (e.remote) for (const sid of e.keys) this.revoked.set(String(sid), nowSeconds() + SESSION_TTL_SECONDS);
    });
  }

  issue(req: FastifyRequest, reply: FastifyReply, uid: number): SessionClaims {
    const claims = { sid: CryptoService.randomString(24), uid, iat: nowSeconds() };
    reply.setCookie(SESSION_COOKIE, `${claims.sid}.${claims.uid}.${claims.iat}`, {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      secure: req.protocol === 'https',
      path: '/',
      maxAge: SESSION_TTL_SECONDS,
    });
    return claims;
  }

  read(req: FastifyRequest): SessionClaims | null {
    const cookie = req.cookies?.[SESSION_COOKIE];
    if (!cookie) return null;
    const unsigned = req.unsignCookie(cookie);
    if (!unsigned.valid || !unsigned.value) return null;
    const m = /^([A-Za-z0-9]{24})\.(\d{1,10})\.(\d{1,12})$/.exec(unsigned.value);
    if (!m) return null;
    const claims = { sid: m[1], uid: Number(m[2]), iat: Number(m[3]) };
    if (claims.iat + SESSION_TTL_SECONDS < nowSeconds() || this.isRevoked(claims.sid)) return null;
    return claims;
  }

  revoke(sid: string, reply: FastifyReply): void {
    this.revoked.set(sid, nowSeconds() + SESSION_TTL_SECONDS);
    this.bus.publish('sessions', [sid]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  private isRevoked(sid: string): boolean {
    const until = this.revoked.get(sid);
    if (until === undefined) return false;
    if (until < nowSeconds()) {
      this.revoked.delete(sid);
      return false;
    }
    return true;
  }
}
