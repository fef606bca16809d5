import { headerNames, headerValue } from './header-names';

describe('header names from an option list', () => {
  it('keys them as Node does: trimmed, lower case, blanks and non-strings left out', () => {
    expect(headerNames([' Anthropic-Beta ', 'OPENAI-BETA', '', '   ', 7, null, 'session_id'])).toEqual([
      'anthropic-beta',
      'openai-beta',
      'session_id',
    ]);
    expect(headerNames([])).toEqual([]);
  });

  it('makes them once per list value, and again for a new value', () => {
    const list = ['X-Session-Id'];
    const first = headerNames(list);
    expect(headerNames(list)).toBe(first);
    const changed = ['X-Other'];
    expect(headerNames(changed)).toEqual(['x-other']);
    expect(headerNames(changed)).not.toBe(first);
  });
});

describe('a request header value', () => {
  it('is the first value, trimmed, or null when absent or blank', () => {
    const headers = { session_id: '  abc  ', 'x-many': ['first', 'second'], 'x-blank': '   ', 'x-empty': '' };
    expect(headerValue(headers, 'session_id')).toBe('abc');
    expect(headerValue(headers, 'x-many')).toBe('first');
    expect(headerValue(headers, 'x-blank')).toBeNull();
    expect(headerValue(headers, 'x-empty')).toBeNull();
    expect(headerValue(headers, 'x-absent')).toBeNull();
    expect(headerValue({ 'x-list': [] }, 'x-list')).toBeNull();
  });
});
