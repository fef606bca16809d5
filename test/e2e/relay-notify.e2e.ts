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
      request(t.url).post('/v1/chat/completions').set('Authorization', `Bearer ${key}`).send({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });

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
    await user.put('/api/user/setting', { notify_type: 'email', notification_email: 'plenty@example.com', quota_warning_threshold: 1000 });
    await setQuota(t, user.userId!, 5_000_000);
    const key = (await makeToken(t, user.userId!)).key;
    const res = await request(t.url).post('/v1/chat/completions').set('Authorization', `Bearer ${key}`).send({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    await settle(t);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.to('plenty@example.com')).toHaveLength(0);
  });

  const setupRootClient = () => new ApiClient(t.url).login(ROOT.username, ROOT.password);
});
