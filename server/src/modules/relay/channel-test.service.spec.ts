import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/app-config';
import type { OptionService } from '../option';
import type { ChannelHealthService } from './channel-health.service';
import { ChannelTestService } from './channel-test.service';
import type { ChannelProbe } from './lifecycle/probe';
import type { RelayCacheService } from './relay-cache.service';

/** The service with only what its schedule reads: the monitoring setting and the deployment default. */
function schedule(setting: { minutes: number }, envMinutes = 0) {
  const options = { num: (key: string) => (key === 'ChannelTestFrequency' ? setting.minutes : 0) };
  const config = { nodeType: 'master', channelTestFrequencyMinutes: envMinutes } as AppConfig;
  const service = new ChannelTestService(
    {} as DataSource,
    config,
    {} as ChannelProbe,
    {} as RelayCacheService,
    {} as ChannelHealthService,
    options as unknown as OptionService,
  );
  const runs = jest.spyOn(service, 'testAll').mockResolvedValue(undefined);
  return { service, runs };
}

const MINUTE = 60_000;

describe('periodic channel test schedule', () => {
  it('runs every ChannelTestFrequency minutes, counted from when the setting was switched on', () => {
    const setting = { minutes: 0 };
    const { service, runs } = schedule(setting);
    expect(service.tick(0)).toBe(false);
    expect(service.tick(60 * MINUTE)).toBe(false);

    setting.minutes = 10;
    expect(service.tick(100 * MINUTE)).toBe(false); // switched on now
    expect(service.tick(109 * MINUTE)).toBe(false);
    expect(service.tick(110 * MINUTE)).toBe(true);
    expect(service.tick(115 * MINUTE)).toBe(false);
    expect(service.tick(120 * MINUTE)).toBe(true);
    expect(runs).toHaveBeenCalledTimes(2);
  });

  it('follows a changed interval and stops when the setting goes back to 0', () => {
    const setting = { minutes: 30 };
    const { service, runs } = schedule(setting);
    service.tick(0);
    setting.minutes = 5;
    expect(service.tick(5 * MINUTE)).toBe(true);
    setting.minutes = 0;
    expect(service.tick(60 * MINUTE)).toBe(false);
    expect(service.tick(600 * MINUTE)).toBe(false);
    expect(runs).toHaveBeenCalledTimes(1);
  });

  it('uses CHANNEL_TEST_FREQUENCY while the setting is 0, and the setting over it', () => {
    const setting = { minutes: 0 };
    const { service, runs } = schedule(setting, 60);
    expect(service.frequencyMinutes()).toBe(60);
    service.tick(0);
    expect(service.tick(59 * MINUTE)).toBe(false);
    expect(service.tick(60 * MINUTE)).toBe(true);
    setting.minutes = 2;
    expect(service.frequencyMinutes()).toBe(2);
    expect(service.tick(62 * MINUTE)).toBe(true);
    expect(runs).toHaveBeenCalledTimes(2);
  });
});
