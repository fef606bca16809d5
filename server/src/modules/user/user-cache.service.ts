import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CacheBus } from '../../common/cache-bus';
import { User } from '../../database/entities';
import { Budget, parseBudget } from '../../common/budget-rules';
import { MetricsService } from '../metrics';
import { parseSetting } from './user-setting';

export interface UserSnapshot {
  id: number;
  username: string;
  role: number;
  status: number;
  group: string;
  deleted: boolean;
  accessTokenHash: string | null;
  email: string;
  /** The user's setting: bill models without a price (self-service opt-in). */
  acceptUnsetModel: boolean;
  /** The raw setting JSON (notification preferences). */
  setting: string;
  /** The user's own low-balance warning threshold from the setting (0: the QuotaRemindThreshold option). */
  quotaWarningThreshold: number;
  /** Unix ms; the user's sessions issued before it are no longer valid (password changed). */
  sessionsValidAfter: number;
  /** Quota and request caps per day, week and month; null = none (see modules/budget). */
  budget: Budget | null;
}

const TTL_MS = 60_000;

/**
 * What authorization needs to know about a user, kept in memory. Every write to a user publishes on
 * the cache bus, so a ban or a demotion applies to the next request on every node.
 */
@Injectable()
export class UserCacheService implements OnModuleInit {
  private readonly byId = new Map<number, { snap: UserSnapshot; at: number }>();
  private readonly byTokenHash = new Map<string, number>();

  constructor(
    @InjectRepository(User) private readonly repo: Repository<User>,
    private readonly bus: CacheBus,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    this.bus.on('users', (e) => {
      if (e.keys.length === 0) {
        this.byId.clear();
        this.byTokenHash.clear();
      } else for (const k of e.keys) this.forget(Number(k));
    });
  }

  /** `get` answered from the cache alone: undefined when it would have to read the database. */
  getNow(id: number): UserSnapshot | undefined {
    const hit = this.byId.get(id);
    if (!hit || Date.now() - hit.at >= TTL_MS) return undefined;
    this.metrics.cacheHits.user++;
    return hit.snap;
  }

  async get(id: number): Promise<UserSnapshot | null> {
    const cached = this.getNow(id);
    if (cached !== undefined) return cached;
    this.metrics.cacheMisses.user++;
    const user = await this.repo.findOneBy({ id });
    if (!user) {
      this.byId.delete(id);
      return null;
    }
    return this.remember(user);
  }

  async findByAccessToken(hash: string): Promise<UserSnapshot | null> {
    const id = this.byTokenHash.get(hash);
    if (id !== undefined) {
      const snap = await this.get(id);
      if (snap?.accessTokenHash === hash) return snap;
    }
    const user = await this.repo.findOneBy({ access_token_hash: hash });
    return user ? this.remember(user) : null;
  }

  /** Call after any write to a user row. */
  invalidate(id: number): void {
    this.forget(id);
    this.bus.publish('users', [id]);
  }

  private forget(id: number): void {
    const hit = this.byId.get(id);
    if (hit?.snap.accessTokenHash) this.byTokenHash.delete(hit.snap.accessTokenHash);
    this.byId.delete(id);
  }

  private remember(user: User): UserSnapshot {
    const setting = parseSetting(user.setting);
    const snap: UserSnapshot = {
      id: user.id,
      username: user.username,
      role: user.role,
      status: user.status,
      group: user.group,
      deleted: user.deleted_at !== null && user.deleted_at !== undefined,
      accessTokenHash: user.access_token_hash,
      email: user.email ?? '',
      acceptUnsetModel: setting.accept_unset_model_ratio_model === true,
      setting: user.setting ?? '',
      quotaWarningThreshold: Number(setting.quota_warning_threshold) || 0,
      sessionsValidAfter: Number(user.sessions_valid_after) || 0,
      budget: parseBudget(user.budget),
    };
    this.byId.set(user.id, { snap, at: Date.now() });
    if (snap.accessTokenHash) this.byTokenHash.set(snap.accessTokenHash, user.id);
    return snap;
  }
}
