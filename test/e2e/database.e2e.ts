/**
 * Transactions behave the same on every database: two that overlap in time are isolated (one's
 * rollback never undoes the other's commit), and a write made outside an open transaction is not
 * swept into it. SQLite's single connection needs the serialisation in server/src/database/sqlite-serial.ts
 * for this; MariaDB and PostgreSQL give it by connection.
 */
import { DataSource } from 'typeorm';
import { OptionRow } from '../../server/src/database/entities';
import { startApp, TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('database transactions', () => {
  let t: TestApp;
  let ds: DataSource;
  const value = async (key: string) => (await ds.getRepository(OptionRow).findOneBy({ key }))?.value ?? null;

  beforeAll(async () => {
    t = await startApp();
    ds = t.ds;
  });
  afterAll(() => t?.close());

  it('a rolled-back transaction does not undo an overlapping one that committed', async () => {
    const failing = ds.transaction(async (m) => {
      await m.getRepository(OptionRow).insert({ key: 'tx.a', value: '1' });
      await sleep(30);
      throw new Error('boom');
    });
    await sleep(5);
    const committing = ds.transaction(async (m) => {
      await m.getRepository(OptionRow).insert({ key: 'tx.b', value: '1' });
    });
    await expect(failing).rejects.toThrow('boom');
    await committing;
    expect(await value('tx.a')).toBeNull();
    expect(await value('tx.b')).toBe('1');
  });

  it('a commit is not undone by an overlapping transaction that started first and then failed', async () => {
    const first = ds.transaction(async (m) => {
      await sleep(20);
      await m.getRepository(OptionRow).insert({ key: 'tx.c', value: '1' });
      await sleep(20);
      throw new Error('late failure');
    });
    await sleep(1);
    const second = ds.transaction(async (m) => {
      await m.getRepository(OptionRow).insert({ key: 'tx.d', value: '1' });
      await sleep(40);
      await m.getRepository(OptionRow).update({ key: 'tx.d' }, { value: '2' });
    });
    await expect(first).rejects.toThrow('late failure');
    await second;
    expect(await value('tx.c')).toBeNull();
    expect(await value('tx.d')).toBe('2');
  });

  it('a write outside an open transaction survives that transaction’s rollback', async () => {
    const failing = ds.transaction(async (m) => {
      await m.getRepository(OptionRow).insert({ key: 'tx.e', value: '1' });
      await sleep(30);
      throw new Error('boom');
    });
    await sleep(5);
    await ds.getRepository(OptionRow).insert({ key: 'tx.f', value: '1' });
    await expect(failing).rejects.toThrow('boom');
    expect(await value('tx.e')).toBeNull();
    expect(await value('tx.f')).toBe('1');
  });

  it('many concurrent transactions, some failing, keep exactly the committed ones', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        ds.transaction(async (m) => {
          await m.getRepository(OptionRow).insert({ key: `tx.many.${i}`, value: String(i) });
          await sleep(i % 5);
          if (i % 3 === 0) throw new Error(`fail ${i}`);
        }),
      ),
    );
    const kept = (await ds.getRepository(OptionRow).find())
      .filter((r) => r.key.startsWith('tx.many.'))
      .map((r) => r.key);
    const expected = results.flatMap((r, i) => (r.status === 'fulfilled' ? [`tx.many.${i}`] : []));
    expect(kept.sort()).toEqual(expected.sort());
    expect(expected).toHaveLength(26);
  });
});
