import { describe, expect, it, vi } from 'vitest';
import { changedOptionEntries, normalizeOptionValue, saveOptionEntries, type DiffField } from './option-save';

const fields: DiffField[] = [
  { key: 'ServerAddress', kind: 'url' },
  { key: 'RegisterEnabled', kind: 'bool' },
  { key: 'RetryTimes', kind: 'int' },
  { key: 'SMTPToken', kind: 'secret' },
  { key: 'GroupRatio', kind: 'json' },
  { key: 'PasswordLoginEnabled', kind: 'bool' },
];

const stored = {
  ServerAddress: 'https://gw.example.com',
  RegisterEnabled: 'true',
  RetryTimes: '0',
  GroupRatio: '{"default":1,"vip":2}',
  PasswordLoginEnabled: 'true',
};

describe('changedOptionEntries', () => {
  it('sends nothing when the draft repeats the stored values', () => {
    expect(
      changedOptionEntries(stored, { RegisterEnabled: 'true', RetryTimes: ' 0 ', SMTPToken: '' }, fields),
    ).toEqual([]);
  });

  it('sends only changed keys, toggles first in field order, then the rest in field order', () => {
    const entries = changedOptionEntries(
      stored,
      {
        RetryTimes: '3',
        PasswordLoginEnabled: 'false',
        ServerAddress: 'https://new.example.com',
        RegisterEnabled: 'false',
      },
      fields,
    );
    expect(entries).toEqual([
      { key: 'RegisterEnabled', value: 'false' },
      { key: 'PasswordLoginEnabled', value: 'false' },
      { key: 'ServerAddress', value: 'https://new.example.com' },
      { key: 'RetryTimes', value: '3' },
    ]);
  });

  it('strips trailing slashes from addresses and does not count that as a change', () => {
    expect(changedOptionEntries(stored, { ServerAddress: 'https://gw.example.com///' }, fields)).toEqual([]);
    expect(changedOptionEntries(stored, { ServerAddress: 'https://b.example.com/' }, fields)).toEqual([
      { key: 'ServerAddress', value: 'https://b.example.com' },
    ]);
  });

  it('sends a secret only when something was typed (empty keeps the stored one)', () => {
    expect(changedOptionEntries(stored, { SMTPToken: '' }, fields)).toEqual([]);
    expect(changedOptionEntries(stored, { SMTPToken: 's3cret' }, fields)).toEqual([
      { key: 'SMTPToken', value: 's3cret' },
    ]);
  });

  it('compares JSON by meaning: re-indenting or reordering keys is not a change', () => {
    expect(changedOptionEntries(stored, { GroupRatio: '{\n  "vip": 2,\n  "default": 1\n}' }, fields)).toEqual(
      [],
    );
    expect(changedOptionEntries(stored, { GroupRatio: '{"default":1,"vip":3}' }, fields)).toHaveLength(1);
    // Broken JSON is a change (the panel's validation then refuses it, not the diff).
    expect(changedOptionEntries(stored, { GroupRatio: '{"default":' }, fields)).toHaveLength(1);
  });

  it('ignores draft keys that are not fields of the panel', () => {
    expect(changedOptionEntries(stored, { SystemName: 'Other' }, fields)).toEqual([]);
  });

  it('treats a key missing on the server as empty', () => {
    expect(changedOptionEntries({}, { RetryTimes: '' }, fields)).toEqual([]);
    expect(changedOptionEntries({}, { RetryTimes: '1' }, fields)).toEqual([
      { key: 'RetryTimes', value: '1' },
    ]);
  });
});

describe('normalizeOptionValue', () => {
  it('trims numbers and strips address slashes, leaves text alone', () => {
    expect(normalizeOptionValue('int', ' 5 ')).toBe('5');
    expect(normalizeOptionValue('url', ' https://x.example.com/ ')).toBe('https://x.example.com');
    expect(normalizeOptionValue('textarea', ' keep  spaces \n')).toBe(' keep  spaces \n');
  });
});

describe('saveOptionEntries', () => {
  const entries = [
    { key: 'A', value: '1' },
    { key: 'B', value: '2' },
    { key: 'C', value: '3' },
  ];

  it('sends entries one by one in order and reports success', async () => {
    const order: string[] = [];
    let inFlight = 0;
    const put = vi.fn(async (entry: { key: string }) => {
      inFlight += 1;
      expect(inFlight).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1));
      order.push(entry.key);
      inFlight -= 1;
    });
    const report = await saveOptionEntries(entries, put);
    expect(order).toEqual(['A', 'B', 'C']);
    expect(report).toEqual({ outcome: 'saved', saved: ['A', 'B', 'C'], failed: [] });
  });

  it('keeps going after a failure and reports a partial save', async () => {
    const refusal = Object.assign(new Error('bad'), { status: 'ENVELOPE' });
    const report = await saveOptionEntries(entries, (entry) =>
      entry.key === 'B' ? Promise.reject(refusal) : Promise.resolve(),
    );
    expect(report.outcome).toBe('partial');
    expect(report.saved).toEqual(['A', 'C']);
    expect(report.failed).toEqual([{ key: 'B', error: refusal }]);
  });

  it('reports failed when nothing was saved and nothing when there was nothing to send', async () => {
    const failing = await saveOptionEntries(entries, () => Promise.reject(new Error('down')));
    expect(failing.outcome).toBe('failed');
    expect(failing.failed.map((failure) => failure.key)).toEqual(['A', 'B', 'C']);
    expect((await saveOptionEntries([], vi.fn())).outcome).toBe('nothing');
  });
});
