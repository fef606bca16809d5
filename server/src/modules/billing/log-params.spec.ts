import { LOG_COLUMNS, sqliteLogParams } from './quota-ledger.service';

describe('sqliteLogParams', () => {
  it('writes every column of LOG_COLUMNS in its order, is_stream as 0/1 and a missing value as null', () => {
    const row: Record<string, unknown> = {};
    LOG_COLUMNS.forEach((c, i) => (row[c] = c === 'is_stream' ? true : `${c}-${i}`));
    const params = sqliteLogParams(row, new Array(LOG_COLUMNS.length));
    expect(params).toEqual(LOG_COLUMNS.map((c) => (c === 'is_stream' ? 1 : row[c])));
    expect(params).toHaveLength(LOG_COLUMNS.length);
    const empty = sqliteLogParams({}, []);
    expect(empty).toEqual(LOG_COLUMNS.map((c) => (c === 'is_stream' ? 0 : null)));
    // Zero and the empty string are values, not missing.
    expect(sqliteLogParams({ quota: 0, content: '' }, [])[LOG_COLUMNS.indexOf('quota')]).toBe(0);
    expect(sqliteLogParams({ quota: 0, content: '' }, [])[LOG_COLUMNS.indexOf('content')]).toBe('');
  });
});
