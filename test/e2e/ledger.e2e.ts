/**
 * The ledger's reserves against one user commit in groups (one transaction, a savepoint each): a refused
 * reserve is rolled back alone, the others of its group stand, and the balances end exact.
 */
import { Token, User } from '../../server/src/database/entities';
import { InsufficientQuota, QuotaLedgerService } from '../../server/src/modules/billing/quota-ledger.service';
import { makeUser, setupRoot, startApp, TestApp } from '../support/test-app';

describe('quota ledger reserves', () => {
  let t: TestApp;
  let ledger: QuotaLedgerService;
  let userId: number;
  let limited: number;
  let unlimited: number;

  beforeAll(async () => {
    t = await startApp();
    ledger = t.app.get(QuotaLedgerService);
    const root = await setupRoot(t);
    const user = await makeUser(t, root);
    userId = user.userId!;
    for (const name of ['limited', 'unlimited']) {
      const res = await user.post('/api/token/', {
        name,
        remain_quota: 500,
        expired_time: -1,
        unlimited_quota: name === 'unlimited',
      });
      expect(res.body.success).toBe(true);
    }
    const tokens = await t.ds.getRepository(Token).find({ where: { user_id: userId }, order: { id: 'ASC' } });
    [limited, unlimited] = tokens.map((x) => x.id);
  });
  afterAll(() => t?.close());

  const set = async (quota: number, tokenRemain: number) => {
    await t.ds.getRepository(User).update({ id: userId }, { quota });
    await t.ds.getRepository(Token).update({ id: limited }, { remain_quota: tokenRemain });
  };
  const draft = (i: number) => ({
    user_id: userId,
    created_at: Math.floor(Date.now() / 1000),
    type: 2,
    content: `hold ${i}`,
    username: 'x',
    token_name: 't',
    token_id: 0,
    model_name: 'gpt-4o-mini',
    quota: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    use_time: 0,
    is_stream: false,
    channel_id: 0,
    group: 'default',
    ip: '',
    request_id: `r${i}`,
    other: '',
  });

  it('takes exactly what the balances allow when many reserves of one user arrive together', async () => {
    await set(1000, 200);
    const transactions = jest.spyOn(t.ds, 'transaction');
    // 30 reserves of 25: the limited token can pay 8 of its 15, the unlimited one all 15 (the user has 1000).
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        ledger.reserve(
          { userId, tokenId: i % 2 ? unlimited : limited, tokenUnlimited: i % 2 === 1 },
          25,
          draft(i),
        ),
      ),
    );
    // Grouped: far fewer transactions than reserves (the first goes alone, the rest queue behind it).
    expect(transactions.mock.calls.length).toBeLessThan(10);
    transactions.mockRestore();
    const ok = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(ok).toHaveLength(23);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(r.reason).toBeInstanceOf(InsufficientQuota);
    // Every accepted hold has its own log row; the refused ones left none.
    const ids = ok.map((o) => (o as PromiseFulfilledResult<{ logId: number | null }>).value.logId);
    expect(new Set(ids).size).toBe(23);
    expect(ids.every((id) => typeof id === 'number' && id > 0)).toBe(true);
    expect(Number((await t.ds.getRepository(User).findOneByOrFail({ id: userId })).quota)).toBe(
      1000 - 23 * 25,
    );
    expect(Number((await t.ds.getRepository(Token).findOneByOrFail({ id: limited })).remain_quota)).toBe(0);
  });

  it('never takes the user below zero, whatever the order of arrival', async () => {
    await set(330, 10_000);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, () =>
        ledger.reserve({ userId, tokenId: limited, tokenUnlimited: false }, 25, null),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(13);
    expect(Number((await t.ds.getRepository(User).findOneByOrFail({ id: userId })).quota)).toBe(
      330 - 13 * 25,
    );
    expect(Number((await t.ds.getRepository(Token).findOneByOrFail({ id: limited })).remain_quota)).toBe(
      10_000 - 13 * 25,
    );
  });

  it('a reserve of nothing takes nothing and needs no transaction', async () => {
    await set(5, 5);
    await expect(
      ledger.reserve({ userId, tokenId: limited, tokenUnlimited: false }, 0, null),
    ).resolves.toMatchObject({ reserved: 0, logId: null });
    expect(Number((await t.ds.getRepository(User).findOneByOrFail({ id: userId })).quota)).toBe(5);
  });

  it('lets calls in flight run while a large batch is written, and a balance read meanwhile counts each charge once', async () => {
    await set(1_000_000, 200);
    await ledger.flush();
    const payer = { userId, tokenId: unlimited, tokenUnlimited: true };
    // 200 served calls on trusted holds (nothing written at admission), each charged 7.
    for (let i = 0; i < 200; i++) {
      const hold = await ledger.holdIfTrusted(payer, 10, 100);
      expect(hold).not.toBeNull();
      ledger.settle({
        hold: hold!,
        channelId: 0,
        charged: 7,
        failed: false,
        log: { ...draft(i), content: '', request_id: `batch-turns-${i}` },
        stat: null,
      });
    }
    expect(await ledger.balanceOf(userId)).toBe(1_000_000 - 1400);
    // Event-loop turns while the batch is written; on the second, the balance is read from the database.
    let turns = 0;
    let stop = false;
    let read: Promise<number> | null = null;
    const spin = () => {
      if (stop) return;
      turns++;
      if (turns === 2) {
        (ledger as unknown as { balances: Map<number, unknown> }).balances.clear();
        read = ledger.balanceOf(userId);
      }
      setImmediate(spin);
    };
    setImmediate(spin);
    await ledger.flush();
    stop = true;
    expect(turns).toBeGreaterThan(2);
    expect(await read!).toBe(1_000_000 - 1400);
    expect(Number((await t.ds.getRepository(User).findOneByOrFail({ id: userId })).quota)).toBe(
      1_000_000 - 1400,
    );
    const logs = await t.ds.query(
      `SELECT COUNT(*) AS n, SUM(quota) AS q FROM logs WHERE request_id LIKE 'batch-turns-%'`,
    );
    expect(Number(logs[0].n)).toBe(200);
    expect(Number(logs[0].q)).toBe(1400);
  });

  it('writes a batch through statements prepared once on SQLite, the same figures on every database', async () => {
    await set(1_000_000, 1_000);
    await ledger.flush();
    const tokenBefore = await t.ds.getRepository(Token).findOneByOrFail({ id: limited });
    const batch = async (tag: string) => {
      for (const [i, tokenId] of [limited, unlimited, limited].entries()) {
        const hold = await ledger.holdIfTrusted(
          { userId, tokenId, tokenUnlimited: tokenId === unlimited },
          10,
          100,
        );
        ledger.settle({
          hold: hold!,
          channelId: 0,
          charged: 5 + i,
          failed: false,
          log: { ...draft(i), content: '', request_id: `${tag}-${i}` },
          stat: { username: 'x', model: 'gpt-4o-mini', tokens: 10 },
        });
      }
      await ledger.flush();
    };
    await batch('prepared-a');
    const sqlite = t.ds.options.type === 'better-sqlite3';
    const db = (t.ds.driver as unknown as { databaseConnection: { prepare: (sql: string) => unknown } })
      .databaseConnection;
    const prepare = sqlite ? jest.spyOn(db, 'prepare') : null;
    await batch('prepared-b');
    // The second batch of the same shape prepared nothing but its transaction's BEGIN and COMMIT.
    if (prepare) expect(prepare.mock.calls.map((c) => c[0])).toEqual(['BEGIN TRANSACTION', 'COMMIT']);
    prepare?.mockRestore();
    expect(Number((await t.ds.getRepository(User).findOneByOrFail({ id: userId })).quota)).toBe(
      1_000_000 - 2 * 18,
    );
    const token = await t.ds.getRepository(Token).findOneByOrFail({ id: limited });
    expect(Number(token.remain_quota)).toBe(Number(tokenBefore.remain_quota) - 2 * (5 + 7));
    expect(Number(token.used_quota)).toBe(Number(tokenBefore.used_quota) + 2 * (5 + 7));
  });

  /** Settles `n` calls of the unlimited token at `charged` each, logged with request ids `prefix-i`. */
  const settleMany = async (n: number, charged: number, prefix: string) => {
    const payer = { userId, tokenId: unlimited, tokenUnlimited: true };
    for (let i = 0; i < n; i++)
      ledger.settle({
        hold: ledger.holdIfTrustedNow(payer, 10, 100) ?? (await ledger.holdIfTrusted(payer, 10, 100))!,
        channelId: 0,
        charged,
        failed: false,
        log: { ...draft(i), content: '', request_id: `${prefix}-${i}` },
        stat: null,
      });
  };

  it('writes a large queue in transactions of at most 256 settlements', async () => {
    await set(1_000_000, 1_000);
    await ledger.flush();
    const transactions = jest.spyOn(t.ds, 'transaction');
    await settleMany(600, 3, 'bounded');
    await ledger.flush();
    expect(transactions.mock.calls.length).toBe(3);
    transactions.mockRestore();
    const logs = await t.ds.query(`SELECT COUNT(*) AS n FROM logs WHERE request_id LIKE 'bounded-%'`);
    expect(Number(logs[0].n)).toBe(600);
    expect(Number((await t.ds.getRepository(User).findOneByOrFail({ id: userId })).quota)).toBe(
      1_000_000 - 1800,
    );
  });

  it('a full queue starts a full batch; the few settled meanwhile wait for the timer or an explicit flush', async () => {
    await set(1_000_000, 1_000);
    await ledger.flush();
    const seen = await ledger.balanceOf(userId);
    const transactions = jest.spyOn(t.ds, 'transaction');
    await settleMany(300, 2, 'full');
    // The flush the 256th settlement started, and only it.
    await (ledger as unknown as { flushing: Promise<void> }).flushing;
    const count = async () =>
      Number((await t.ds.query(`SELECT COUNT(*) AS n FROM logs WHERE request_id LIKE 'full-%'`))[0].n);
    expect(transactions.mock.calls.length).toBe(1);
    expect(await count()).toBe(256);
    // Still charged on this node while unwritten: the balance it reads counts all 300.
    expect(await ledger.balanceOf(userId)).toBe(seen - 600);
    await ledger.flush();
    expect(transactions.mock.calls.length).toBe(2);
    transactions.mockRestore();
    expect(await count()).toBe(300);
    expect(Number((await t.ds.getRepository(User).findOneByOrFail({ id: userId })).quota)).toBe(
      1_000_000 - 600,
    );
  });
});
