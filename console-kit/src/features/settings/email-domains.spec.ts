import { describe, expect, it } from 'vitest';
import { addDomain, parseDomainList } from './email-domains';

describe('email domain whitelist', () => {
  it('reads the comma list, trimmed and lower-cased', () => {
    expect(parseDomainList(' Gmail.com, qq.com ,,')).toEqual(['gmail.com', 'qq.com']);
    expect(parseDomainList('')).toEqual([]);
  });

  it('adds a valid new domain (a leading @ is dropped)', () => {
    expect(addDomain(['gmail.com'], ' @Example.ORG ')).toEqual({ list: ['gmail.com', 'example.org'] });
    expect(addDomain([], 'mail.sub-domain.example.co.uk')).toEqual({
      list: ['mail.sub-domain.example.co.uk'],
    });
  });

  it('refuses malformed domains and duplicates', () => {
    for (const bad of [
      '',
      'localhost',
      'exa mple.com',
      '-bad.com',
      'bad-.com',
      'a@b.com',
      'example.c',
      'xn--.com',
    ]) {
      expect(addDomain([], bad)).toEqual({ problem: 'invalid' });
    }
    expect(addDomain(['gmail.com'], 'GMAIL.com')).toEqual({ problem: 'duplicate' });
  });
});
