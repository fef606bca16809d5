import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/fake-server';
import { fetchLatestRelease, isNewerRelease } from './other-settings';
import { fetchOidcEndpoints } from './system-settings';

describe('OIDC well-known fetch', () => {
  it('fills the three endpoints from a discovery document', async () => {
    const fetcher = vi.fn(() =>
      Promise.resolve(
        jsonResponse({
          issuer: 'https://id.example.com',
          authorization_endpoint: 'https://id.example.com/authorize',
          token_endpoint: 'https://id.example.com/token',
          userinfo_endpoint: 'https://id.example.com/userinfo',
        }),
      ),
    );
    await expect(
      fetchOidcEndpoints('https://id.example.com/.well-known/openid-configuration', fetcher),
    ).resolves.toEqual({
      authorization_endpoint: 'https://id.example.com/authorize',
      token_endpoint: 'https://id.example.com/token',
      user_info_endpoint: 'https://id.example.com/userinfo',
    });
    expect(fetcher).toHaveBeenCalledWith(
      'https://id.example.com/.well-known/openid-configuration',
      expect.anything(),
    );
  });

  it('fails on an HTTP error or a document without endpoints', async () => {
    await expect(
      fetchOidcEndpoints('https://x.example.com', () => Promise.resolve(jsonResponse({}, 404))),
    ).rejects.toThrow('HTTP 404');
    await expect(
      fetchOidcEndpoints('https://x.example.com', () => Promise.resolve(jsonResponse({ issuer: 'x' }))),
    ).rejects.toThrow('not an OIDC discovery document');
  });
});

describe('version check', () => {
  it('compares tags with or without a leading v', () => {
    expect(isNewerRelease('0.1.0', 'v0.1.0')).toBe(false);
    expect(isNewerRelease('v0.1.0', 'v0.2.0')).toBe(true);
    expect(isNewerRelease('0.1.0', '')).toBe(false);
  });

  it('reads tag_name and body of the latest release', async () => {
    const fetcher = vi.fn(() => Promise.resolve(jsonResponse({ tag_name: 'v2.0.0', body: '# Notes' })));
    await expect(fetchLatestRelease('acme/gatehouse', fetcher)).resolves.toMatchObject({
      tag_name: 'v2.0.0',
      body: '# Notes',
    });
    expect(fetcher).toHaveBeenCalledWith(
      'https://api.github.com/repos/acme/gatehouse/releases/latest',
      expect.anything(),
    );
    await expect(
      fetchLatestRelease('acme/gatehouse', () =>
        Promise.resolve(jsonResponse({ message: 'Not Found' }, 404)),
      ),
    ).rejects.toThrow();
  });
});
