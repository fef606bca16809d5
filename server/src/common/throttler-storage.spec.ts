import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { RedisThrottlerStorage } from './throttler-storage';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('RedisThrottlerStorage', () => {
  it('counts hits of one key in Redis across storage instances (two nodes)', async () => {
    const prefix = `gh-thr-${randomBytes(4).toString('hex')}`;
    const one = await RedisThrottlerStorage.create(REDIS_URL, prefix);
    const two = await RedisThrottlerStorage.create(REDIS_URL, prefix);
    try {
      const r1 = await one.increment('k', 60_000, 2, 60_000, 'auth');
      const r2 = await two.increment('k', 60_000, 2, 60_000, 'auth');
      const r3 = await one.increment('k', 60_000, 2, 60_000, 'auth');
      expect([r1.totalHits, r2.totalHits, r3.totalHits]).toEqual([1, 2, 3]);
      expect([r1.isBlocked, r2.isBlocked, r3.isBlocked]).toEqual([false, false, true]);
      // Another prefix (another deployment on the same Redis) counts apart.
      const other = await RedisThrottlerStorage.create(REDIS_URL, `${prefix}-x`);
      expect((await other.increment('k', 60_000, 2, 60_000, 'auth')).totalHits).toBe(1);
      other.onModuleDestroy();
    } finally {
      one.onModuleDestroy();
      two.onModuleDestroy();
    }
  });

  it('counts on this node when Redis cannot be reached instead of failing the request', async () => {
    const storage = await RedisThrottlerStorage.create(
      `redis://127.0.0.1:${await closedPort()}`,
      'gh-thr-down',
    );
    try {
      const r1 = await storage.increment('k', 60_000, 1, 60_000, 'auth');
      const r2 = await storage.increment('k', 60_000, 1, 60_000, 'auth');
      expect([r1.totalHits, r2.totalHits]).toEqual([1, 2]);
      expect(r2.isBlocked).toBe(true);
    } finally {
      storage.onModuleDestroy();
      storage.onApplicationShutdown();
    }
  });
});
