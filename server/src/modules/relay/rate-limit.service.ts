import { Injectable } from '@nestjs/common';
import { OptionService } from '../option/option.service';
import { relayFail } from './errors';

/**
 * ModelRequestRateLimit*: per user, at most Count requests (total) and SuccessCount successful
 * requests per DurationMinutes; GroupRatio-style per-group overrides may come later. Counters are
 * sliding windows kept in memory (timestamps pruned as they age out).
 */
@Injectable()
export class RateLimitService {
  private readonly total = new Map<string, number[]>();
  private readonly ok = new Map<string, number[]>();

  constructor(private readonly options: OptionService) {}

  private window(): number {
    return Math.max(1, this.options.num('ModelRequestRateLimitDurationMinutes')) * 60_000;
  }

  private recent(map: Map<string, number[]>, key: string, now: number): number[] {
    const list = map.get(key) ?? [];
    const from = now - this.window();
    let i = 0;
    while (i < list.length && list[i] <= from) i++;
    const kept = i ? list.slice(i) : list;
    map.set(key, kept);
    return kept;
  }

  /** Refuses with 429 when a limit is reached; counts the request otherwise. */
  check(userId: number, _group: string): void {
    if (!this.options.bool('ModelRequestRateLimitEnabled')) return;
    const now = Date.now();
    const key = String(userId);
    const minutes = Math.max(1, this.options.num('ModelRequestRateLimitDurationMinutes'));
    const maxTotal = this.options.num('ModelRequestRateLimitCount');
    const maxOk = this.options.num('ModelRequestRateLimitSuccessCount');
    const total = this.recent(this.total, key, now);
    if (maxTotal > 0 && total.length >= maxTotal) throw relayFail(429, 'relay_rate_limited', { minutes, count: maxTotal }, 'rate_limit_exceeded');
    const ok = this.recent(this.ok, key, now);
    if (maxOk > 0 && ok.length >= maxOk) throw relayFail(429, 'relay_rate_limited', { minutes, count: maxOk }, 'rate_limit_exceeded');
    total.push(now);
  }

  success(userId: number, _group: string): void {
    if (!this.options.bool('ModelRequestRateLimitEnabled')) return;
    const key = String(userId);
    const list = this.ok.get(key) ?? [];
    list.push(Date.now());
    this.ok.set(key, list);
  }
}
