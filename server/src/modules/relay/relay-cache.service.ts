import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import * as ipaddr from 'ipaddr.js';
import { DataSource, IsNull } from 'typeorm';
import { CacheBus } from '../../common/cache-bus';
import { hashApiKey } from '../../common/api-key';
import { CryptoService } from '../../common/crypto.service';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { Ability, Channel, ChannelStatus, Token } from '../../database/entities';
import { Budget, parseBudget } from '../../common/budget-rules';
import { CHANNEL_TYPES } from '../channel';
import { MetricsService } from '../metrics';
import { ChannelIndex, ChannelSnapshot, buildChannelIndex } from './channel-selector';

export interface TokenSnapshot {
  id: number;
  userId: number;
  name: string;
  keyHash: string;
  status: number;
  expiredTime: number;
  remainQuota: number;
  unlimited: boolean;
  modelLimits: Set<string> | null;
  allowIps: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> | null;
  group: string;
  /** Requests per minute, tokens per minute, requests in flight (0 = unlimited; see ScopedLimitService). */
  rpmLimit: number;
  tpmLimit: number;
  concurrencyLimit: number;
  /** Quota and request caps per day, week and month; null = none (see modules/budget). */
  budget: Budget | null;
}

const TOKEN_TTL_MS = 60_000;
const MISS_TTL_MS = 5_000;

function parseJsonObject(s: string | null): Record<string, unknown> {
  if (!s) return {};
  try {
    const v: unknown = JSON.parse(s);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function parseAllowIps(s: string | null): TokenSnapshot['allowIps'] {
  const out: NonNullable<TokenSnapshot['allowIps']> = [];
  for (const line of (s ?? '').split(/[\n,]/)) {
    const v = line.trim();
    if (!v) continue;
    try {
      if (v.includes('/')) out.push(ipaddr.parseCIDR(v));
      else {
        const a = ipaddr.process(v);
        out.push([a, a.kind() === 'ipv4' ? 32 : 128]);
      }
    } catch {
      // An unparsable entry allows nothing (the management API refuses them on write).
    }
  }
  return out.length || (s ?? '').trim() ? out : null;
}

export function ipAllowed(allow: TokenSnapshot['allowIps'], ip: string): boolean {
  if (!allow) return true;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(ip);
  } catch {
    return false;
  }
  return allow.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));
}

/**
 * The relay's in-memory view of tokens, channels and abilities (hot path rule 1: no database read per
 * request). Tokens are loaded on first use and dropped on any write (cache bus); channels and
 * abilities are reloaded whole on any channel write, and every SYNC_FREQUENCY seconds as a safety net.
 */
@Injectable()
export class RelayCacheService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('RelayCache');
  private readonly tokens = new Map<string, { snap: TokenSnapshot | null; at: number }>();
  private readonly keyHashes = new Map<string, string>();
  private index: ChannelIndex = buildChannelIndex([], []);
  private reloading: Promise<void> | null = null;
  private dirty = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly crypto: CryptoService,
    private readonly bus: CacheBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  async onModuleInit(): Promise<void> {
    this.bus.on('tokens', (e) => {
      if (e.keys.length === 0) return this.tokens.clear();
      for (const k of e.keys) {
        if (typeof k === 'string' && k.length === 64) this.tokens.delete(k);
        else for (const [h, v] of this.tokens) if (v.snap?.id === Number(k)) this.tokens.delete(h);
      }
    });
    this.bus.on('channels', () => void this.reloadChannels());
    await this.reloadChannels();
    this.timer = setInterval(
      () => void this.reloadChannels(),
      Math.max(1, this.config.syncFrequencySeconds) * 1000,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  get channels(): ChannelIndex {
    return this.index;
  }

  /** Reloads channels and abilities; a reload requested during one runs again right after it. */
  reloadChannels(): Promise<void> {
    if (this.reloading) {
      this.dirty = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.dirty = false;
        try {
          const [channels, abilities] = await Promise.all([
            this.ds.getRepository(Channel).find(),
            this.ds.getRepository(Ability).find({ where: { enabled: true } }),
          ]);
          this.index = buildChannelIndex(
            channels.map((c) => this.snapshot(c)),
            abilities,
          );
          this.metrics.channelReloads++;
        } catch (err) {
          this.logger.error(`channel reload failed: ${(err as Error).message}`);
        }
      } while (this.dirty);
      this.reloading = null;
    })();
    return this.reloading;
  }

  private snapshot(c: Channel): ChannelSnapshot {
    let key = '';
    try {
      key = this.crypto.decrypt(c.key ?? '');
    } catch {
      this.logger.warn(`channel ${c.id}: key cannot be decrypted with the current CRYPTO_SECRET`);
    }
    const setting = parseJsonObject(c.setting);
    return {
      id: c.id,
      name: c.name,
      type: c.type,
      status: c.status,
      enabled: c.status === ChannelStatus.Enabled,
      keys: key
        .split('\n')
        .map((k) => k.trim())
        .filter(Boolean),
      baseUrl: (c.base_url || CHANNEL_TYPES[c.type]?.baseUrl || '').replace(/\/+$/, ''),
      other: c.other ?? '',
      organization: c.openai_organization ?? '',
      modelMapping: parseJsonObject(c.model_mapping) as Record<string, string>,
      statusCodeMapping: parseJsonObject(c.status_code_mapping) as Record<string, string | number>,
      paramOverride: parseJsonObject(c.param_override),
      headerOverride: (setting.header_override ?? {}) as Record<string, string>,
      setting,
      autoBan: c.auto_ban === 1,
      maxInputTokens: c.max_input_tokens ?? 0,
      rpmLimit: c.rpm_limit ?? 0,
      tpmLimit: c.tpm_limit ?? 0,
      concurrencyLimit: c.concurrency_limit ?? 0,
      priority: Number(c.priority),
      weight: c.weight,
      models: (c.models ?? '').split(',').filter(Boolean),
      group: c.group,
    };
  }

  /** Keyed hash of an API key, memoised (bounded) so a busy key is not re-hashed on every request. */
  hashKey(key: string): string {
    let h = this.keyHashes.get(key);
    if (h !== undefined) this.metrics.cacheHits.key_hash++;
    else {
      this.metrics.cacheMisses.key_hash++;
      if (this.keyHashes.size >= 10_000) this.keyHashes.clear();
      h = hashApiKey(key, (k) => this.crypto.keyedHash(k));
      this.keyHashes.set(key, h);
    }
    return h;
  }

  /** `token` answered from the cache alone: undefined when it would have to read the database. */
  tokenNow(keyHash: string): TokenSnapshot | null | undefined {
    const hit = this.tokens.get(keyHash);
    if (!hit || Date.now() - hit.at >= (hit.snap ? TOKEN_TTL_MS : MISS_TTL_MS)) return undefined;
    this.metrics.cacheHits.token++;
    return hit.snap;
  }

  /** The token for a key hash; null when unknown or deleted. A DB read only on a miss. */
  async token(keyHash: string): Promise<TokenSnapshot | null> {
    const cached = this.tokenNow(keyHash);
    if (cached !== undefined) return cached;
    this.metrics.cacheMisses.token++;
    const row = await this.ds.getRepository(Token).findOneBy({ key_hash: keyHash, deleted_at: IsNull() });
    const snap: TokenSnapshot | null = row
      ? {
          id: row.id,
          userId: row.user_id,
          name: row.name,
          keyHash,
          status: row.status,
          expiredTime: Number(row.expired_time),
          remainQuota: Number(row.remain_quota),
          unlimited: !!row.unlimited_quota,
          modelLimits: row.model_limits_enabled
            ? new Set(
                (row.model_limits ?? '')
                  .split(',')
                  .map((s) => s.trim())
                  .filter(Boolean),
              )
            : null,
          allowIps: parseAllowIps(row.allow_ips),
          group: row.group ?? '',
          rpmLimit: row.rpm_limit ?? 0,
          tpmLimit: row.tpm_limit ?? 0,
          concurrencyLimit: row.concurrency_limit ?? 0,
          budget: parseBudget(row.budget),
        }
      : null;
    this.tokens.set(keyHash, { snap, at: Date.now() });
    return snap;
  }
}
