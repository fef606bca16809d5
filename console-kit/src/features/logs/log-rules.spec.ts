import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { logListUrl, logStatUrl } from './logs-api';
import {
  billingLine,
  emptyLogFilters,
  firstTokenColor,
  isValidChannelFilter,
  logQueryParams,
  logTypeKey,
  otherDetails,
  parseLogColumns,
  parseOther,
  retryChain,
  timeSpentColor,
  type LogFilters,
} from './log-rules';

const base: LogFilters = {
  type: 0,
  startTimestamp: 0,
  endTimestamp: 0,
  tokenName: '',
  modelName: '',
  group: '',
  requestId: '',
  username: '',
  channel: '',
};

describe('log filters → query parameters', () => {
  it('leaves blank filters out and keeps paging', () => {
    expect(logQueryParams(base, true, { page: 2, pageSize: 20 }).toString()).toBe('p=2&page_size=20');
  });

  it('sends every filter an admin set, trimmed, with seconds timestamps', () => {
    const params = logQueryParams(
      {
        type: 2,
        startTimestamp: 1735689600,
        endTimestamp: 1735693200.9,
        tokenName: ' my key ',
        modelName: 'gpt-4o',
        group: 'vip',
        requestId: 'req-1',
        username: 'alice',
        channel: '7',
      },
      true,
    );
    expect(Object.fromEntries(params)).toEqual({
      type: '2',
      start_timestamp: '1735689600',
      end_timestamp: '1735693200',
      token_name: 'my key',
      model_name: 'gpt-4o',
      group: 'vip',
      request_id: 'req-1',
      username: 'alice',
      channel: '7',
    });
  });

  it('never sends username or channel for a user', () => {
    const params = logQueryParams({ ...base, username: 'bob', channel: '3', modelName: 'x' }, false);
    expect(params.has('username')).toBe(false);
    expect(params.has('channel')).toBe(false);
    expect(params.get('model_name')).toBe('x');
  });

  it('type 0 (all) is left out', () => {
    expect(logQueryParams({ ...base, type: 0 }, false).has('type')).toBe(false);
    expect(logQueryParams({ ...base, type: 5 }, false).get('type')).toBe('5');
  });

  it('admin and user read different endpoints', () => {
    const args = { filters: { ...base, modelName: 'm' }, page: 1, pageSize: 10 };
    expect(logListUrl({ ...args, admin: true })).toBe('/api/log/?p=1&page_size=10&model_name=m');
    expect(logListUrl({ ...args, admin: false })).toBe('/api/log/self/?p=1&page_size=10&model_name=m');
    expect(logStatUrl({ ...base, type: 2 }, true)).toBe('/api/log/stat?type=2');
    expect(logStatUrl(base, false)).toBe('/api/log/self/stat?');
  });

  it('the default range is today 00:00 to one hour ahead', () => {
    const now = dayjs('2026-03-04T15:20:00');
    const filters = emptyLogFilters(now);
    expect(filters.startTimestamp).toBe(dayjs('2026-03-04T00:00:00').unix());
    expect(filters.endTimestamp).toBe(dayjs('2026-03-04T16:20:00').unix());
  });

  it('accepts only a numeric channel id', () => {
    expect(isValidChannelFilter('')).toBe(true);
    expect(isValidChannelFilter(' 12 ')).toBe(true);
    expect(isValidChannelFilter('-1')).toBe(false);
    expect(isValidChannelFilter('1e3')).toBe(false);
    expect(isValidChannelFilter('abc')).toBe(false);
  });
});

describe('colours and types', () => {
  it('use time: under 101 green, under 300 orange, else red', () => {
    expect(timeSpentColor(0)).toBe('success');
    expect(timeSpentColor(100)).toBe('success');
    expect(timeSpentColor(101)).toBe('warning');
    expect(timeSpentColor(299)).toBe('warning');
    expect(timeSpentColor(300)).toBe('error');
  });

  it('first token: under 3 s green, under 10 s orange, else red', () => {
    expect(firstTokenColor(2999)).toBe('success');
    expect(firstTokenColor(3000)).toBe('warning');
    expect(firstTokenColor(9999)).toBe('warning');
    expect(firstTokenColor(10000)).toBe('error');
  });

  it('maps log types, unknown otherwise', () => {
    expect([1, 2, 3, 4, 5].map(logTypeKey)).toEqual(['topup', 'consume', 'manage', 'system', 'error']);
    expect(logTypeKey(0)).toBe('unknown');
    expect(logTypeKey(9)).toBe('unknown');
  });
});

describe('other details', () => {
  it('reads malformed other as empty', () => {
    expect(parseOther('')).toEqual({});
    expect(parseOther('{oops')).toEqual({});
    expect(parseOther('[1,2]')).toEqual({});
    expect(parseOther('"text"')).toEqual({});
    expect(parseOther('{"a":1}')).toEqual({ a: 1 });
  });

  it('lists every key: known ones in order, the channel chain, then unknown ones as given', () => {
    const other = {
      unknown_key: { nested: true },
      frt: 850,
      model_ratio: 1.25,
      group_ratio: 0.5,
      completion_ratio: 4,
      cache_tokens: 12,
      cache_ratio: 0.1,
      reasoning_effort: 'high',
      is_model_mapped: true,
      upstream_model_name: 'gpt-4o-2024',
      model_price: -1,
      admin_info: { use_channel: [3, 5] },
    };
    const lines = otherDetails(other);
    expect(lines.map((line) => line.key)).toEqual([
      'model_ratio',
      'model_price',
      'completion_ratio',
      'group_ratio',
      'cache_tokens',
      'cache_ratio',
      'reasoning_effort',
      'is_model_mapped',
      'upstream_model_name',
      'frt',
      'use_channel',
      'unknown_key',
    ]);
    expect(lines.find((line) => line.key === 'use_channel')?.value).toBe('3 → 5');
    expect(lines.find((line) => line.key === 'model_price')?.value).toBe('byTokens');
    expect(lines.find((line) => line.key === 'is_model_mapped')?.value).toBe('true');
    expect(lines.at(-1)).toEqual({ key: 'unknown_key', known: false, value: '{"nested":true}' });
  });

  it('names content_logged as a known key (its label is translated), before the channels used', () => {
    expect(otherDetails({ admin_info: { use_channel: [2] }, content_logged: true, ws: true })).toEqual([
      { key: 'ws', known: true, value: 'true' },
      { key: 'content_logged', known: true, value: 'true' },
      { key: 'use_channel', known: true, value: '2' },
    ]);
  });

  it('keeps a real model price and shows the retry chain only for more than one channel', () => {
    expect(otherDetails({ model_price: 0.04 })).toEqual([{ key: 'model_price', known: true, value: '0.04' }]);
    expect(otherDetails({ user_group_ratio: -1 })).toEqual([
      { key: 'user_group_ratio', known: true, value: 'unset' },
    ]);
    expect(otherDetails({ user_group_ratio: 0.8 })[0].value).toBe('0.8');
    expect(retryChain({ admin_info: { use_channel: [4] } })).toEqual([]);
    expect(retryChain({ admin_info: { use_channel: [4, 9] } })).toEqual([4, 9]);
    expect(retryChain({})).toEqual([]);
  });
});

describe('column settings', () => {
  it('defaults to every column and keeps stored booleans only', () => {
    expect(Object.values(parseLogColumns(null)).every(Boolean)).toBe(true);
    const parsed = parseLogColumns('{"retry":false,"model":"no","bogus":false}');
    expect(parsed.retry).toBe(false);
    expect(parsed.model).toBe(true);
    expect(parseLogColumns('not json').time).toBe(true);
  });
});

describe('billingLine', () => {
  const cost = (quota: number) => `$${(quota / 500_000).toFixed(6)}`;
  const call = { type: 2, quota: 75, prompt_tokens: 10, completion_tokens: 5 };

  it('explains a per-call charge and leaves the ratios out', () => {
    expect(billingLine(call, { model_price: 0.05, group_ratio: 1.5, model_ratio: 0 }, 500_000, cost)).toEqual(
      {
        key: 'perCall',
        params: { price: '0.05', group: '1.5', cost: '$0.000150' },
      },
    );
  });

  it('explains a per-token charge with prices per million tokens', () => {
    expect(
      billingLine(
        call,
        { model_ratio: 1.25, completion_ratio: 4, group_ratio: 1, user_group_ratio: -1 },
        500_000,
        cost,
      ),
    ).toEqual({
      key: 'byTokens',
      params: {
        prompt: 10,
        completion: 5,
        inputPrice: '2.5',
        outputPrice: '10',
        group: '1',
        cost: '$0.000150',
      },
    });
    expect(
      billingLine(
        call,
        { model_ratio: 1, cache_tokens: 4, cache_ratio: 0.5, user_group_ratio: 0.8 },
        500_000,
        cost,
      )?.params,
    ).toMatchObject({ cached: 4, cacheRatio: '0.5', group: '0.8', inputPrice: '2' });
  });

  it('says nothing for other log types or rows without figures', () => {
    expect(billingLine({ ...call, type: 1 }, { model_ratio: 1 }, 500_000, cost)).toBeNull();
    expect(billingLine(call, {}, 500_000, cost)).toBeNull();
  });
});
