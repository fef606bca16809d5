import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { CacheBus } from '../../common/cache-bus';
import { RedisBusService } from '../../common/redis-bus.service';
import { nowSeconds } from '../../common/time';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { SessionRevocation } from '../../database/entities';
import {
  SESSION_COOKIE,
  SESSION_TTL_SECONDS,
  setSessionCookie,
  type SessionClaims,
} from '../../common/http/session-cookie';

/** How far back a node re-reads revocations it may have missed (clock skew, writes still committing). */
const REVOCATION_OVERLAP_MS = 5 * 60_000;

/**
 * Sessions are signed HttpOnly cookies (see setSessionCookie); nothing is stored per session while it
 * is valid. Two things end one early:
 *
 * - A logout revokes that one session: its id is kept, until the cookie would expire, in memory (checked
 *   on every request without a round trip) and in the `session_revocations` table, so the logout
 *   survives a restart. Other nodes learn it at once through the cache bus (Redis), and in any case from
 *   the table at boot and on every resync (SYNC_FREQUENCY).
 * - A password change ends every session of the user issued before it: the user's
 *   `sessions_valid_after` (part of the cached user snapshot, invalidated on every node like a ban).
 *
 * The user's status and role are re-checked on every request, so a ban takes effect at once.
 */
@Injectable()
export class SessionService implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Sessions');
  /** Revoked session id → unix seconds when its cookie expires. */
  private readonly revoked = new Map<string, number>();
  /** Newest revoked_at (ms) read from the table: later reads start a little before it. */
  private newest = 0;
  private loaded = false;

  constructor(
    private readonly bus: CacheBus,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly redis: RedisBusService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.bus.on('sessions', (e) => {
      if (!e.remote) return;
      if (e.keys.length === 0) void this.resync();
      for (const sid of e.keys) this.revoked.set(String(sid), nowSeconds() + SESSION_TTL_SECONDS);
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.nodeType === 'master') await this.importRedisRevocations();
    await this.resync();
  }

  /**
   * Earlier versions kept revocations only in Redis (a sorted set: session id → expiry): the master
   * moves those still running into the table once, so that no revoked session comes back.
   */
  private async importRedisRevocations(): Promise<void> {
    const client = this.redis.client;
    if (!client) return;
    const key = `${this.config.redisPrefix}:sessions:revoked`;
    try {
      const flat = await client.zrangebyscore(key, nowSeconds(), '+inf', 'WITHSCORES');
      const rows: SessionRevocation[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2)
        rows.push({ sid: flat[i], expires_at: Number(flat[i + 1]), revoked_at: Date.now() });
      for (let i = 0; i < rows.length; i += 500)
        await this.ds
          .getRepository(SessionRevocation)
          .createQueryBuilder()
          .insert()
          .values(rows.slice(i, i + 500))
          .orIgnore()
          .execute();
      await client.del(key);
    } catch (err) {
      this.logger.warn(`session revocations not moved from Redis: ${(err as Error).message}`);
    }
  }

  private async resync(): Promise<void> {
    if (this.config.nodeType === 'master') await this.pruneRevoked();
    await this.loadRevoked();
  }

  /** Reads the revocations added since the last read (all of them the first time). */
  async loadRevoked(): Promise<void> {
    try {
      const since = this.loaded ? this.newest - REVOCATION_OVERLAP_MS : 0;
      const rows = await this.ds
        .getRepository(SessionRevocation)
        .createQueryBuilder('r')
        .where('r.expires_at > :now', { now: nowSeconds() })
        .andWhere('r.revoked_at >= :since', { since })
        .getMany();
      for (const r of rows) {
        this.revoked.set(r.sid, r.expires_at);
        if (r.revoked_at > this.newest) this.newest = r.revoked_at;
      }
      this.loaded = true;
    } catch (err) {
      this.logger.warn(`session revocations not loaded: ${(err as Error).message}`);
    }
  }

  /** Deletes revocations of cookies that have expired anyway. */
  private async pruneRevoked(): Promise<void> {
    try {
      await this.ds
        .getRepository(SessionRevocation)
        .createQueryBuilder()
        .delete()
        .where('expires_at <= :now', { now: nowSeconds() })
        .execute();
    } catch (err) {
      this.logger.warn(`expired session revocations not deleted: ${(err as Error).message}`);
    }
  }

  issue(req: FastifyRequest, reply: FastifyReply, uid: number): SessionClaims {
    return setSessionCookie(req, reply, uid);
  }

  /** The claims of a validly signed, unexpired, unrevoked session cookie (see also `endedFor`). */
  read(req: FastifyRequest): SessionClaims | null {
    const cookie = req.cookies?.[SESSION_COOKIE];
    if (!cookie) return null;
    const unsigned = req.unsignCookie(cookie);
    if (!unsigned.valid || !unsigned.value) return null;
    const m = /^([A-Za-z0-9]{24})\.(\d{1,10})\.(\d{1,13})$/.exec(unsigned.value);
    if (!m) return null;
    const iat = Number(m[3]);
    // Cookies issued before sessions carried milliseconds hold seconds.
    const claims = { sid: m[1], uid: Number(m[2]), issuedAt: iat < 1e11 ? iat * 1000 : iat };
    if (claims.issuedAt + SESSION_TTL_SECONDS * 1000 < Date.now() || this.isRevoked(claims.sid)) return null;
    return claims;
  }

  /** True when the user's sessions were ended (password change) after this one was issued. */
  endedFor(claims: SessionClaims, user: { sessionsValidAfter: number }): boolean {
    return claims.issuedAt < user.sessionsValidAfter;
  }

  /** Ends one session: on this node at once, on the others through the bus and the table. */
  async revoke(sid: string, reply: FastifyReply): Promise<void> {
    const until = nowSeconds() + SESSION_TTL_SECONDS;
    this.revoked.set(sid, until);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    await this.ds
      .getRepository(SessionRevocation)
      .createQueryBuilder()
      .insert()
      .values({ sid, expires_at: until, revoked_at: Date.now() })
      .orIgnore()
      .execute();
    this.bus.publish('sessions', [sid]);
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
