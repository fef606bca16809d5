import type { RedisBusService } from '../../common/redis-bus.service';
import type { AppConfig } from '../../config/app-config';
import { RelayError } from './errors';
import { hasScopedLimits, LimitLease, Refusal, ScopedLimitService } from './scoped-limit.service';

/** The in-process counters (no Redis): sliding minutes, slots, idempotent release. */
describe('ScopedLimitService in memory', () => {
  let svc: ScopedLimitService;
  let now: number;

  beforeEach(() => {
    now = Date.UTC(2026, 0, 1, 12, 0, 0);
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    svc = new ScopedLimitService(
      { client: null } as unknown as RedisBusService,
      { redisPrefix: 't' } as AppConfig,
    );
  });

  afterEach(() => {
    svc.onModuleDestroy();
    jest.restoreAllMocks();
  });

  const limits = (rpmLimit = 0, tpmLimit = 0, concurrencyLimit = 0) => ({
    rpmLimit,
    tpmLimit,
    concurrencyLimit,
  });

  it('knows a subject without limits', () => {
    expect(hasScopedLimits(limits())).toBe(false);
    expect(hasScopedLimits(limits(0, 0, 1))).toBe(true);
  });

  it('refuses the request past the RPM and admits again once the minute slid past the first ones', async () => {
    const l = limits(2);
    const first = await svc.acquire('token', 1, l);
    expect(first).toBeInstanceOf(LimitLease);
    (first as LimitLease).release();
    now += 30_000;
    const second = await svc.acquire('token', 1, l);
    (second as LimitLease).release();
    expect(await svc.acquire('token', 1, l)).toBe(Refusal.Rpm);
    // Another subject, and the same id in the other scope, count apart.
    expect(await svc.acquire('token', 2, l)).toBeInstanceOf(LimitLease);
    expect(await svc.acquire('channel', 1, l)).toBeInstanceOf(LimitLease);
    now += 30_000; // the first request is now 60 s old
    expect(await svc.acquire('token', 1, l)).toBeInstanceOf(LimitLease);
    expect(await svc.acquire('token', 1, l)).toBe(Refusal.Rpm);
    now += 30_000;
    expect(await svc.acquire('token', 1, l)).toBeInstanceOf(LimitLease);
  });

  it('holds N slots at once; a release is counted once however often it is called', async () => {
    const l = limits(0, 0, 2);
    const a = (await svc.acquire('channel', 7, l)) as LimitLease;
    const b = (await svc.acquire('channel', 7, l)) as LimitLease;
    expect(await svc.acquire('channel', 7, l)).toBe(Refusal.Concurrency);
    a.release();
    a.release();
    const c = (await svc.acquire('channel', 7, l)) as LimitLease;
    expect(c).toBeInstanceOf(LimitLease);
    expect(await svc.acquire('channel', 7, l)).toBe(Refusal.Concurrency);
    b.release();
    c.release();
    expect(await svc.acquire('channel', 7, l)).toBeInstanceOf(LimitLease);
  });

  it('counts billed tokens per minute for the token and the channel that have a TPM limit', async () => {
    const token = { id: 3, ...limits(0, 100) };
    const channel = { id: 4, ...limits(0, 50) };
    svc.addTokens(token, channel, 60);
    expect(await svc.acquire('token', 3, token)).toBeInstanceOf(LimitLease);
    expect(await svc.acquire('channel', 4, channel)).toBe(Refusal.Tpm);
    svc.addTokens(token, channel, 40);
    expect(await svc.acquire('token', 3, token)).toBe(Refusal.Tpm);
    now += 60_000;
    expect(await svc.acquire('token', 3, token)).toBeInstanceOf(LimitLease);
    expect(await svc.acquire('channel', 4, channel)).toBeInstanceOf(LimitLease);
  });

  it('answers a token over its limit with a 429 naming it and the wait, and frees the slot on release', async () => {
    const token = { id: 9, ...limits(0, 0, 1) };
    const lease = await svc.admitToken(token);
    const refused = await svc.admitToken(token).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RelayError);
    expect((refused as RelayError).status).toBe(429);
    expect((refused as RelayError).retryAfter).toBe(1);
    expect((refused as RelayError).messageIn('en')).toMatch(/at most 1 at a time/);
    lease.release();
    lease.release(); // idempotent: one slot given back
    const again = await svc.admitToken(token);
    await expect(svc.admitToken(token)).rejects.toBeInstanceOf(RelayError);
    again.release();
    const rpm = { id: 10, ...limits(1, 0, 0) };
    (await svc.admitToken(rpm)).release();
    const overRpm = await svc.admitToken(rpm).catch((e: unknown) => e);
    expect((overRpm as RelayError).retryAfter).toBe(60);
  });
});
