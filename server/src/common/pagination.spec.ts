import { escapeLike, parsePage } from './pagination';

describe('parsePage', () => {
  it('defaults to page 1 of 10', () => {
    expect(parsePage({})).toEqual({ page: 1, pageSize: 10, offset: 0 });
  });
  it('accepts page_size, size and ps; clamps to 100; p < 1 means 1', () => {
    expect(parsePage({ p: '3', page_size: '20' })).toEqual({ page: 3, pageSize: 20, offset: 40 });
    expect(parsePage({ p: '2', size: '50' }).pageSize).toBe(50);
    expect(parsePage({ ps: '5' }).pageSize).toBe(5);
    expect(parsePage({ page_size: '100000' }).pageSize).toBe(100);
    expect(parsePage({ p: '-4' }).page).toBe(1);
    expect(parsePage({ p: 'abc', page_size: 'x' })).toEqual({ page: 1, pageSize: 10, offset: 0 });
    expect(parsePage({ page_size: '0' }).pageSize).toBe(10);
  });
});

describe('escapeLike', () => {
  it('escapes wildcards and the escape character', () => {
    expect(escapeLike('50%_off!\\')).toBe('50!%!_off!!\\');
    expect(escapeLike('plain')).toBe('plain');
  });
});
