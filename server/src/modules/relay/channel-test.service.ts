import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { nowSeconds } from '../../common/time';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { Channel, ChannelStatus } from '../../database/entities';
import { OptionService } from '../option';
import { ChannelHealthService } from './channel-health.service';
import type { ChannelSnapshot } from './channel-selector';
import { RelayCacheService } from './relay-cache.service';
import { ChannelProbe } from './lifecycle/probe';

export interface ChannelTestResult {
  success: boolean;
  message: string;
  /** Seconds the test took. */
  time: number;
}

/**
 * Channel tests: one on demand, and every channel periodically on the master node
 * (docs/decisions.md#periodic-channel-test), every ChannelTestFrequency minutes (a monitoring setting,
 * read live: a change takes effect within a minute, 0 turns it off), or every CHANNEL_TEST_FREQUENCY
 * minutes while the setting is 0. The result updates response_time/test_time and drives the reference rules:
 * a failure with an auto-disable condition, or a test slower than ChannelDisableThreshold, disables an
 * auto_ban channel when AutomaticDisableChannelEnabled; a passing test re-enables an automatically
 * disabled (status 3) channel when AutomaticEnableChannelEnabled. Manually disabled channels are never
 * changed.
 */
/** How often the master looks at the periodic test's schedule. */
export const SCHEDULE_TICK_MS = 30_000;

@Injectable()
export class ChannelTestService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ChannelTest');
  private timer: NodeJS.Timeout | null = null;
  /** When the last periodic run started (or the periodic test was switched on); null while off. */
  private lastRunAt: number | null = null;
  private running: Promise<void> | null = null;
  private stopping = false;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly probe: ChannelProbe,
    private readonly cache: RelayCacheService,
    private readonly health: ChannelHealthService,
    private readonly options: OptionService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.nodeType !== 'master') return;
    this.timer = setInterval(() => this.tick(Date.now()), SCHEDULE_TICK_MS);
    this.timer.unref();
  }

  /** Minutes between periodic runs: the monitoring setting, else the deployment's default; 0 = off. */
  frequencyMinutes(): number {
    const fromSettings = this.options.num('ChannelTestFrequency');
    return fromSettings > 0 ? fromSettings : Math.max(0, this.config.channelTestFrequencyMinutes);
  }

  /**
   * One look at the schedule (every SCHEDULE_TICK_MS on the master): starts a run over every channel
   * once the interval has passed since the last run, or since the periodic test was switched on.
   * Returns whether it started one.
   */
  tick(now: number): boolean {
    const minutes = this.frequencyMinutes();
    if (minutes <= 0) {
      this.lastRunAt = null;
      return false;
    }
    if (this.lastRunAt === null) {
      this.lastRunAt = now;
      return false;
    }
    if (now - this.lastRunAt < minutes * 60_000 || this.running) return false;
    this.lastRunAt = now;
    void this.testAll();
    return true;
  }

  onModuleDestroy(): void {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
  }

  /** The model a test uses: `?model=`, else the channel's test_model, else its first model. */
  private async testModel(ch: ChannelSnapshot, requested?: string): Promise<string> {
    if (requested) return requested;
    const row = await this.ds
      .getRepository(Channel)
      .findOne({ where: { id: ch.id }, select: { id: true, test_model: true } });
    return row?.test_model || ch.models[0] || 'gpt-4o-mini';
  }

  /** `reload`: re-read the channels first (a run over all channels reads them once, before it starts). */
  async testOne(id: number, model?: string, reload = true): Promise<ChannelTestResult | null> {
    if (reload) await this.cache.reloadChannels();
    const ch = this.cache.channels.byId.get(id);
    if (!ch) return null;
    const r = await this.probe.run(ch, await this.testModel(ch, model));
    const seconds = r.ms / 1000;
    await this.ds.getRepository(Channel).update({ id }, { response_time: r.ms, test_time: nowSeconds() });
    const threshold = this.options.num('ChannelDisableThreshold');
    const tooSlow = r.ok && threshold > 0 && seconds > threshold;
    if (
      ch.status === ChannelStatus.Enabled &&
      this.options.bool('AutomaticDisableChannelEnabled') &&
      ch.autoBan
    ) {
      if (tooSlow)
        await this.health.disable(
          ch.id,
          ch.name,
          `response time ${seconds.toFixed(2)}s exceeds ${threshold}s`,
        );
      else if (!r.ok && this.health.shouldDisable(ch, r.status, r.message))
        await this.health.disable(ch.id, ch.name, `status ${r.status}: ${r.message}`);
    } else if (
      ch.status === ChannelStatus.AutoDisabled &&
      r.ok &&
      !tooSlow &&
      this.options.bool('AutomaticEnableChannelEnabled')
    )
      await this.health.enable(ch.id, ch.name);
    const message = r.ok
      ? tooSlow
        ? `response time ${seconds.toFixed(2)}s exceeds ${threshold}s`
        : ''
      : r.message;
    return { success: r.ok && !tooSlow, message, time: seconds };
  }

  /** Tests every channel that is not disabled by hand, one after another; one run at a time. */
  testAll(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      try {
        await this.cache.reloadChannels();
        const ids = [...this.cache.channels.byId.values()]
          .filter((c) => c.status !== ChannelStatus.ManuallyDisabled)
          .map((c) => c.id);
        for (const id of ids) {
          if (this.stopping) break;
          await this.testOne(id, undefined, false);
        }
      } catch (err) {
        this.logger.error(`channel test run failed: ${(err as Error).message}`);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  get busy(): boolean {
    return this.running !== null;
  }
}
