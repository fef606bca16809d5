import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CacheBus } from '../../common/cache-bus';
import { CryptoService } from '../../common/crypto.service';
import { RedisBusService } from '../../common/redis-bus.service';
import { nowSeconds } from '../../common/time';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';

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
 *
 * The list is checked in memory (no round trip per request). With Redis it is also kept there, in one
 * sorted set (session id → when the cookie expires): a logout reaches the other nodes at once through
 * the cache bus, and a node that starts later, or missed a message, loads the set at boot and on every
 * resync (SYNC_FREQUENCY).
 */
@Injectable()
export class SessionService implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Sessions');
  private readonly revoked = new Map<string, number>();
  private readonly revokedKey: string;

  constructor(
    private readonly bus: CacheBus,
    private readonly redis: RedisBusService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.revokedKey = `${config.redisPrefix}:sessions:revoked`;
  }

  onModuleInit(): void {
    this.bus.on('sessions', (e) => {
      if (!e.remote) return;
      if (e.keys.length === 0) void this.loadRevoked();
      for (const sid of e.keys) this.revoked.set(String(sid), nowSeconds() + SESSION_TTL_SECONDS);
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.loadRevoked();
  }

  /** Adds the revocations kept in Redis (dropping the expired ones there); nothing without Redis. */
  async loadRevoked(): Promise<void> {
    const client = this.redis.client;
    if (!client) return;
    try {
      const now = nowSeconds();
      await client.zremrangebyscore(this.revokedKey, '-inf', now);
      const flat = await client.zrange(this.revokedKey, 0, -1, 'WITHSCORES');
      for (let i = 0; i + 1 < flat.length; i += 2) this.revoked.set(flat[i], Number(flat[i + 1]));
    } catch (err) {
      this.logger.warn(`session revocations not loaded from Redis: ${(err as Error).message}`);
    }
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
    const until = nowSeconds() + SESSION_TTL_SECONDS;
    this.revoked.set(sid, until);
    this.bus.publish('sessions', [sid]);
    this.redis.client
      ?.zadd(this.revokedKey, until, sid)
      .catch((err: Error) => this.logger.warn(`session revocation not stored in Redis: ${err.message}`));
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
