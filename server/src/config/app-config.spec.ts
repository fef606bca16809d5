import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'gh-config-'));

  it('has working defaults', () => {
    const cwd = dir();
    const c = loadConfig({}, { cwd, quiet: true });
    expect(c.port).toBe(3000);
    expect(c.database).toEqual({ type: 'sqlite', path: join(cwd, 'data', 'gatehouse.db') });
    expect(c.nodeType).toBe('master');
    expect(c.cryptoSecret).toBe(c.sessionSecret);
  });

  it('generates a session secret once and reuses it from the data folder', () => {
    const cwd = dir();
    const first = loadConfig({}, { cwd, quiet: true }).sessionSecret;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(cwd, 'data', '.session_secret'), 'utf8').trim()).toBe(first);
    expect(loadConfig({}, { cwd, quiet: true }).sessionSecret).toBe(first);
  });

  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig(
        { PORT: 'eighty', NODE_TYPE: 'boss', SESSION_SECRET: 'short', REDIS_CONN_STRING: 'http://x' },
        { cwd: dir(), quiet: true },
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const msg = (error as Error).message;
    for (const key of ['PORT', 'NODE_TYPE', 'SESSION_SECRET', 'REDIS_CONN_STRING'])
      expect(msg).toContain(key);
  });

  it('reports a malformed SQL_DSN as a configuration error', () => {
    expect(() =>
      loadConfig({ SQL_DSN: 'nonsense', SESSION_SECRET: 'x'.repeat(16) }, { cwd: dir(), quiet: true }),
    ).toThrow(ConfigError);
  });

  it('reads OUTBOUND_CA_FILE relative to the working folder and refuses a missing or non-PEM file', () => {
    const cwd = dir();
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    writeFileSync(join(cwd, 'ca.pem'), pem);
    writeFileSync(join(cwd, 'junk.txt'), 'not a certificate');
    expect(loadConfig({ OUTBOUND_CA_FILE: 'ca.pem' }, { cwd, quiet: true }).outboundCa).toBe(pem);
    expect(loadConfig({}, { cwd, quiet: true }).outboundCa).toBeNull();
    expect(() => loadConfig({ OUTBOUND_CA_FILE: 'missing.pem' }, { cwd, quiet: true })).toThrow(
      /OUTBOUND_CA_FILE: cannot read/,
    );
    expect(() => loadConfig({ OUTBOUND_CA_FILE: 'junk.txt' }, { cwd, quiet: true })).toThrow(
      /holds no PEM certificate/,
    );
  });

  it('reads the task poller and sign-in provider settings, refusing out-of-range values', () => {
    const cwd = dir();
    const d = loadConfig({}, { cwd, quiet: true });
    expect([d.taskPollIntervalMs, d.taskTimeoutMs]).toEqual([15_000, 3_600_000]);
    expect(d.oauthUrls).toEqual({
      githubOAuth: 'https://github.com',
      githubApi: 'https://api.github.com',
      linuxdo: 'https://connect.linux.do',
    });
    const c = loadConfig(
      { TASK_POLL_INTERVAL: '0.2', TASK_TIMEOUT: '90', GITHUB_OAUTH_URL: 'https://ghe.example.com/' },
      { cwd, quiet: true },
    );
    expect([c.taskPollIntervalMs, c.taskTimeoutMs, c.oauthUrls.githubOAuth]).toEqual([
      200,
      90_000,
      'https://ghe.example.com',
    ]);
    expect(loadConfig({ TASK_POLL_INTERVAL: '0' }, { cwd, quiet: true }).taskPollIntervalMs).toBe(0);
    for (const bad of ['-1', 'abc', '0.01', '1e3', '100000'])
      expect(() => loadConfig({ TASK_POLL_INTERVAL: bad }, { cwd, quiet: true })).toThrow(
        /TASK_POLL_INTERVAL/,
      );
    expect(() => loadConfig({ TASK_TIMEOUT: '0.5' }, { cwd, quiet: true })).toThrow(/TASK_TIMEOUT/);
    expect(() => loadConfig({ LINUXDO_OAUTH_URL: 'ftp://x' }, { cwd, quiet: true })).toThrow(
      /LINUXDO_OAUTH_URL/,
    );
  });

  it('splits trusted proxies', () => {
    const c = loadConfig(
      { TRUSTED_PROXIES: '10.0.0.1, 10.0.0.0/8 ,', SESSION_SECRET: 'x'.repeat(16) },
      { cwd: dir(), quiet: true },
    );
    expect(c.trustedProxies).toEqual(['10.0.0.1', '10.0.0.0/8']);
  });
});
