/**
 * Reservations a stopped process left open (kill -9 with calls in flight) are settled by the next start:
 * the reserved quota goes back to the user and, where it was taken from it, to the token; the row says
 * the call was interrupted and charges nothing. On several nodes a node settles only its own, and the
 * master also any left open for more than a day.
 */
import { LogEntry, Token, User } from '../../server/src/database/entities';
import { QuotaLedgerService } from '../../server/src/modules/billing/quota-ledger.service';
import { makeToken, setQuota } from '../support/relay-fixtures';
import { makeUser, REDIS_URL, setupRoot, startApp, startNode, TestApp } from '../support/test-app';

const now = () => Math.floor(Date.now() / 1000);

function hold(userId: number, tokenId: number, i: number, holdToken: boolean) {
  return {
    user_id: userId,
    created_at: now() - 5,
    type: 2,
    content: 'in progress',
    username: 'u',
    token_name: 't',
    token_id: tokenId,
    model_name: 'gpt-4o',
    quota: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    use_time: 0,
    is_stream: false,
    channel_id: 0,
    group: 'default',
    ip: '',
    request_id: `crash-${i}`,
    other: JSON.stringify({ hold_token: holdToken }),
  };
}

describe('reservations left open by a stopped process', () => {
  let t: TestApp;
  let ledger: QuotaLedgerService;
  let userId: number;
  let limited: number;
  let unlimited: number;

  beforeAll(async () => {
    t = await startApp();
    ledger = t.app.get(QuotaLedgerService);
    const root = await setupRoot(t);
    userId = (await makeUser(t, root)).userId!;
    limited = (await makeToken(t, userId, { remain_quota: 5000, unlimited_quota: false })).id;
    unlimited = (await makeToken(t, userId, { unlimited_quota: true })).id;
  });
  afterAll(() => t?.close());

  const balances = async () => ({
    user: Number((await t.ds.getRepository(User).findOneByOrFail({ id: userId })).quota),
    token: Number((await t.ds.getRepository(Token).findOneByOrFail({ id: limited })).remain_quota),
  });

  it('refunds every reservation of the calls in flight at the crash, once, and leaves rows that explain it', async () => {
    await setQuota(t, userId, 10_000);
    // What a crash leaves: reserves taken (balances lowered, rows "in progress"), never settled.
    await ledger.reserve(
      { userId, tokenId: limited, tokenUnlimited: false },
      300,
      hold(userId, limited, 1, true),
    );
    await ledger.reserve(
      { userId, tokenId: unlimited, tokenUnlimited: true },
      200,
      hold(userId, unlimited, 2, false),
    );
    expect(await balances()).toEqual({ user: 9500, token: 4700 });

    expect(await ledger.recoverInterrupted(now() + 1)).toBe(2);
    expect(await balances()).toEqual({ user: 10_000, token: 5000 });
    const rows = await t.ds.getRepository(LogEntry).findBy({ user_id: userId });
    expect(rows.filter((r) => r.content === 'in progress')).toHaveLength(0);
    const closed = rows.filter((r) => r.request_id.startsWith('crash-'));
    expect(closed).toHaveLength(2);
    for (const r of closed) {
      expect(r.type).toBe(5);
      expect(Number(r.quota)).toBe(0);
      expect(r.content).toMatch(/^已中断：网关在这次调用结束前停止；已退还预扣的 \d+ 额度$/);
      // The note is kept as a key for readers of other languages, next to what other held before.
      const other = JSON.parse(r.other ?? '{}') as { hold_token?: unknown; content_i18n?: { key: string } };
      expect(other.content_i18n?.key).toBe('log_text_call_interrupted');
      expect(other.hold_token).toBeDefined();
    }
    // A task's hold is "in progress" too, but its task goes on upstream: the restart leaves it alone.
    const task = await ledger.reserve({ userId, tokenId: limited, tokenUnlimited: false }, 50, {
      ...hold(userId, limited, 7, true),
      model_name: 'mj_imagine',
      other: JSON.stringify({ task: true }),
    });
    expect(await ledger.recoverInterrupted(now() + 1)).toBe(0);
    expect((await t.ds.getRepository(LogEntry).findOneByOrFail({ id: task.logId! })).content).toBe(
      'in progress',
    );
    ledger.settle({ hold: task, channelId: 0, charged: 0, failed: true, log: null, stat: null });
    await ledger.flush();
    // Settling again finds nothing: no double refund.
    expect(await ledger.recoverInterrupted(now() + 1)).toBe(0);
    expect(await balances()).toEqual({ user: 10_000, token: 5000 });
  });

  it('does not touch a reservation made after the start (a call of this process still running)', async () => {
    await setQuota(t, userId, 10_000);
    const h = await ledger.reserve({ userId, tokenId: limited, tokenUnlimited: false }, 100, {
      ...hold(userId, limited, 3, true),
      created_at: now() + 60,
    });
    expect(await ledger.recoverInterrupted(now())).toBe(0);
    ledger.settle({
      hold: h,
      channelId: 0,
      charged: 40,
      failed: false,
      log: { ...hold(userId, limited, 3, true), content: '', quota: 40 },
      stat: null,
    });
    await ledger.flush();
    expect((await balances()).user).toBe(10_000 - 40);
  });

  it('with several nodes, settles its own and, on the master, only what another node left open for over a day', async () => {
    const env = { REDIS_CONN_STRING: REDIS_URL, REDIS_PREFIX: `gh-rec-${Date.now()}`, NODE_NAME: 'node-a' };
    const a = await startNode(t, env);
    try {
      await setQuota(t, userId, 10_000);
      const repo = t.ds.getRepository(LogEntry);
      const l = a.app.get(QuotaLedgerService);
      await l.reserve(
        { userId, tokenId: unlimited, tokenUnlimited: true },
        100,
        hold(userId, unlimited, 4, false),
      ); // node-a's own
      const other = await repo.save(
        repo.create({ ...hold(userId, unlimited, 5, false), quota: 100, node_name: 'node-b' }),
      );
      const stale = await repo.save(
        repo.create({
          ...hold(userId, unlimited, 6, false),
          quota: 100,
          node_name: 'node-c',
          created_at: now() - 2 * 86_400,
        }),
      );
      await t.ds.getRepository(User).decrement({ id: userId }, 'quota', 200);
      expect(await l.recoverInterrupted(now() + 1)).toBe(2);
      expect((await repo.findOneByOrFail({ id: other.id })).content).toBe('in progress');
      expect((await repo.findOneByOrFail({ id: stale.id })).type).toBe(5);
      expect((await balances()).user).toBe(10_000 - 100);
      await repo.delete({ id: other.id });
    } finally {
      await a.close();
    }
  });
});
