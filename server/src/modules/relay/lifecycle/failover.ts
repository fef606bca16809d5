/**
 * The channel failover loop, the one copy every upstream call uses (HTTP relay, realtime upgrades,
 * Midjourney and Suno submissions): pick a channel → try it → on failure feed the channel's health
 * and, when the failure is retryable and nothing has reached the client, pick the next channel
 * (never one already tried in this request's tier walk), up to RetryTimes more attempts.
 *
 * Money is not handled here: the caller refunds or settles with the result.
 */
import { Injectable } from '@nestjs/common';
import { OptionService } from '../../option';
import { ChannelHealthService } from '../channel-health.service';
import type { ChannelSnapshot } from '../channel-selector';
import { RelayError, toRelayError } from '../errors';

export interface FailoverPlan<A, R> {
  /** Extra attempts after the first (see `retries`). */
  retries: number;
  /** The attempt's channel and whatever the call needs; a throw ends the loop with that error. */
  pick(attempt: number, exclude: ReadonlySet<number>): A | Promise<A>;
  channelOf(a: A): ChannelSnapshot;
  /** The call itself; a throw is the attempt's failure. */
  run(a: A): Promise<R>;
  /** Checked after a failure: true ends the loop (the client left, or part of an answer went out). */
  stop?(): boolean;
  /** Errors that are not the upstream's failure and leave the loop as they are (the client left...). */
  passThrough?(err: unknown): boolean;
  /** Frees what `pick` took for an attempt that is not run. */
  release?(a: A): void;
  /** Called once an attempt's failure is known (after health). */
  onFailure?(a: A, e: RelayError): void;
}

export type FailoverResult<A, R> =
  | { ok: true; value: R; attempt: A; tried: number[] }
  | { ok: false; error: RelayError | null; channel: ChannelSnapshot | null; tried: number[] };

/** What the first attempt excludes: nothing (shared, never written). */
const NONE_TRIED: ReadonlySet<number> = new Set();

@Injectable()
export class Failover {
  constructor(
    private readonly health: ChannelHealthService,
    private readonly options: OptionService,
  ) {}

  /** RetryTimes, or none for a channel fixed by the caller (pinned key, a task's origin channel). */
  retries(fixed: boolean): number {
    return fixed ? 0 : Math.max(0, this.options.num('RetryTimes'));
  }

  async run<A, R>(plan: FailoverPlan<A, R>): Promise<FailoverResult<A, R>> {
    const tried: number[] = [];
    let error: RelayError | null = null;
    let channel: ChannelSnapshot | null = null;
    // Channels that timed out for this request: waiting on them again only doubles the wait.
    let timedOut: Set<number> | null = null;
    for (let attempt = 0; attempt <= plan.retries; attempt++) {
      let a: A;
      try {
        const picked = plan.pick(attempt, tried.length ? new Set(tried) : NONE_TRIED);
        a = picked instanceof Promise ? await picked : picked;
      } catch (err) {
        if (plan.passThrough?.(err)) throw err;
        // No (further) channel: the first attempt's refusal is the answer; after a failure, that failure is.
        error ??= toRelayError(err);
        break;
      }
      if (
        timedOut?.has(plan.channelOf(a).id) &&
        !this.options.bool('general_setting.retry_timeout_same_channel')
      ) {
        plan.release?.(a);
        break;
      }
      channel = plan.channelOf(a);
      tried.push(channel.id);
      try {
        const value = await plan.run(a);
        return { ok: true, value, attempt: a, tried };
      } catch (err) {
        if (plan.passThrough?.(err)) throw err;
        const e = toRelayError(err);
        error = e;
        if (e.key === 'relay_upstream_timeout') (timedOut ??= new Set()).add(channel.id);
        void this.health.onUpstreamError(channel, e.upstreamStatus ?? e.status, e.text || e.messageIn('en'));
        plan.onFailure?.(a, e);
        if (!e.retryable || plan.stop?.()) break;
      }
    }
    return { ok: false, error, channel, tried };
  }
}
