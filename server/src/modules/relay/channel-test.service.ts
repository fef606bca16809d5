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
 * Channel tests: one on demand, and every channel every CHANNEL_TEST_FREQUENCY minutes on the master
 * node (docs/decisions.md#periodic-channel-test). The result updates response_time/test_time and drives the reference rules:
 * a failure with an auto-disable condition, or a test slower than ChannelDisableThreshold, disables an
 * auto_ban channel when AutomaticDisableChannelEnabled; a passing test re-enables an automatically
 * disabled (status 3) channel when AutomaticEnableChannelEnabled. Manually disabled channels are never
 * changed.
 */
@Injectable()
export class ChannelTestService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ChannelTest');
  private timer: NodeJS.Timeout | null = null;
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
    const minutes = this.config.channelTestFrequencyMinutes;
    if (this.config.nodeType !== 'master' || minutes <= 0) return;
    this.timer = setInterval(() => void this.testAll(), minutes * 60_000);
    this.timer.unref();
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
