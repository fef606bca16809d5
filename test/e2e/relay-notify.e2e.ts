import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { MockUpstream } from '../mocks/mock-upstream';
import { MockSmtp } from '../support/mock-smtp';
import { makeChannel, makeToken, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, makeUser, ROOT, setupRoot, startApp, TestApp } from '../support/test-app';

/** The low-balance warning a user gets after a charge leaves them below their threshold. */
describe('quota warning', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let smtp: MockSmtp;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    smtp = await MockSmtp.start();
    t = await startApp();
    const root = await setupRoot(t);
    await smtp.configure(root);
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o' });
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
    await smtp?.close();
  });

  it('emails the user once when a charge leaves the balance under the threshold, not on every request', async () => {
    const root = await setupRootClient();
    const user = await makeUser(t, root);
    const saved = await user.put('/api/user/setting', {
      notify_type: 'email',
      notification_email: 'low-balance@example.com',
      quota_warning_threshold: 1_000_000,
    });
    expect(saved.body.success).toBe(true);
    await setQuota(t, user.userId!, 600_000);
    const key = (await makeToken(t, user.userId!)).key;
    const ask = () =>
      request(t.url)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${key}`)
        .send({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });

    expect((await ask()).status).toBe(200);
    const mail = await smtp.waitFor('low-balance@example.com');
    expect(mail.subject).toBe('Quota warning');
    expect(mail.body).toContain('$1.20');

    expect((await ask()).status).toBe(200);
    await settle(t);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.to('low-balance@example.com')).toHaveLength(1);
  });

  it('stays silent while the balance is above the threshold', async () => {
    const root = await setupRootClient();
    const user = await makeUser(t, root);
    await user.put('/api/user/setting', {
      notify_type: 'email',
      notification_email: 'plenty@example.com',
      quota_warning_threshold: 1000,
    });
    await setQuota(t, user.userId!, 5_000_000);
    const key = (await makeToken(t, user.userId!)).key;
    const res = await request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    await settle(t);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.to('plenty@example.com')).toHaveLength(0);
  });

  const setupRootClient = () => new ApiClient(t.url).login(ROOT.username, ROOT.password);
});

/**
 * The webhook form of the warning: an HTTPS POST signed with the user's webhook secret, to a local
 * HTTPS server whose self-signed certificate the gateway trusts through OUTBOUND_CA_FILE.
 */
describe('quota warning by webhook', () => {
  let mock: MockUpstream;
  let dir: string;
  let hooks: Server;
  let hookUrl: string;
  const received: Array<{ body: string; signature: string | undefined; path: string }> = [];
  const apps: TestApp[] = [];

  beforeAll(async () => {
    mock = await MockUpstream.start();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-webhook-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    hooks = createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          received.push({
            body,
            signature: req.headers['x-webhook-signature'] as string | undefined,
            path: req.url ?? '',
          });
          res.end('ok');
        });
      },
    );
    await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', () => r()));
    hookUrl = `https://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const a of apps) await a.close();
    await mock?.close();
    await new Promise((r) => hooks?.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  async function lowBalanceCall(env: Record<string, string>, path: string): Promise<void> {
    const t = await startApp({ ALLOW_PRIVATE_OUTBOUND: 'true', ...env });
    apps.push(t);
    const root = await setupRoot(t);
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o' });
    const user = await makeUser(t, root);
    const saved = await user.put('/api/user/setting', {
      notify_type: 'webhook',
      webhook_url: `${hookUrl}${path}`,
      webhook_secret: 'whsec-test-1',
      quota_warning_threshold: 1_000_000,
    });
    expect(saved.body.success).toBe(true);
    await setQuota(t, user.userId!, 600_000);
    const key = (await makeToken(t, user.userId!)).key;
    for (let i = 0; i < 2; i++) {
      const res = await request(t.url)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${key}`)
        .send({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status).toBe(200);
      await settle(t);
    }
    await new Promise((r) => setTimeout(r, 500));
  }

  it('posts a signed JSON warning once, over HTTPS with a trusted certificate', async () => {
    await lowBalanceCall({ OUTBOUND_CA_FILE: join(dir, 'cert.pem') }, '/hook-trusted');
    const got = received.filter((r) => r.path === '/hook-trusted');
    expect(got).toHaveLength(1);
    const body = JSON.parse(got[0].body) as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'quota_exceed', title: 'Quota warning' });
    expect(body.content).toContain('$1.20');
    expect(typeof body.timestamp).toBe('number');
    expect(got[0].signature).toBe(createHmac('sha256', 'whsec-test-1').update(got[0].body).digest('hex'));
  });

  it('does not deliver to a certificate it does not trust (TLS is verified), and the request still succeeds', async () => {
    await lowBalanceCall({}, '/hook-untrusted');
    expect(received.filter((r) => r.path === '/hook-untrusted')).toHaveLength(0);
  });
});
