import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../server/src/app.factory';
import { AppConfig, loadConfig } from '../../server/src/config/app-config';
import { freshDatabase, FreshDatabase, TestDriver } from './databases';
import { checkAnswersFrom, checkedRequest } from './openapi-check';

export interface TestApp {
  app: NestFastifyApplication;
  url: string;
  config: AppConfig;
  ds: DataSource;
  db: FreshDatabase;
  close(): Promise<void>;
}

/**
 * Test defaults: quick bcrypt, a generous sign-in rate limit, 127.0.0.1 trusted to forward client IPs,
 * and channels allowed on private addresses (the mock upstreams listen on 127.0.0.1; the suites that
 * test the address rule set ALLOW_PRIVATE_OUTBOUND=false).
 */
export const TEST_ENV: Record<string, string> = {
  ALLOW_PRIVATE_OUTBOUND: 'true',
  NODE_ENV: 'test',
  SESSION_SECRET: 'test-session-secret-0123456789',
  CRYPTO_SECRET: 'test-crypto-secret-0123456789',
  BCRYPT_COST: '4',
  LOGIN_RATE_LIMIT: '10000',
  TRUSTED_PROXIES: '127.0.0.1,::1,::ffff:127.0.0.1',
  LOG_LEVEL: 'error',
  STATIC_DIR: '/nonexistent-static-dir',
};

/** Boots the whole server on a random port over a fresh database of the current driver. */
export async function startApp(env: Record<string, string> = {}, driver?: TestDriver): Promise<TestApp> {
  const db = await freshDatabase(driver);
  const config = loadConfig({ ...TEST_ENV, ...db.env, ...env }, { quiet: true });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  checkAnswersFrom(url);
  return {
    app,
    url,
    config,
    ds: app.get(DataSource),
    db,
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

/** A second node on the same database (no new database; closing it leaves the data alone). */
export async function startNode(t: TestApp, env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({ ...TEST_ENV, ...t.db.env, ...env }, { quiet: true });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  checkAnswersFrom(url);
  return {
    app,
    url,
    config,
    ds: app.get(DataSource),
    db: t.db,
    close: () => app.close(),
  };
}

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

type Method = 'get' | 'post' | 'put' | 'delete';

/**
 * A browser-like client: keeps cookies and sends New-Api-User once signed in. Every JSON answer it
 * receives is checked against the OpenAPI document (see openapi-check.ts).
 */
export class ApiClient {
  readonly agent: ReturnType<typeof request.agent>;
  userId: number | null = null;
  token: string | null = null;
  ip = '127.0.0.1';

  constructor(readonly url: string) {
    this.agent = request.agent(url);
  }

  private call(method: Method, path: string) {
    let r = this.agent[method](path).set('X-Forwarded-For', this.ip);
    if (this.userId !== null) r = r.set('New-Api-User', String(this.userId));
    if (this.token) r = r.set('Authorization', `Bearer ${this.token}`);
    return checkedRequest(r);
  }

  get(path: string) {
    return this.call('get', path);
  }
  post(path: string, body?: unknown) {
    return this.call('post', path).send(body as object);
  }
  put(path: string, body?: unknown) {
    return this.call('put', path).send(body as object);
  }
  delete(path: string, body?: unknown) {
    const r = this.call('delete', path);
    return body === undefined ? r : r.send(body as object);
  }

  async login(username: string, password: string): Promise<this> {
    const res = await this.post('/api/user/login', { username, password });
    if (!res.body.success) throw new Error(`login ${username} failed: ${res.body.message}`);
    this.userId = res.body.data.id;
    return this;
  }
}

/** Changes one option through the API as `admin`; throws when the server refuses. */
export async function putOption(
  admin: ApiClient,
  key: string,
  value: string | number | boolean,
): Promise<void> {
  const res = await admin.put('/api/option/', { key, value: String(value) });
  if (res.status !== 200 || !res.body.success)
    throw new Error(`set ${key}: ${res.status} ${JSON.stringify(res.body)}`);
}

export const ROOT = { username: 'root', password: 'root-pass-1' };

/** Runs the setup wizard and returns a signed-in root client. */
export async function setupRoot(t: TestApp): Promise<ApiClient> {
  const res = await request(t.url)
    .post('/api/setup')
    .send({ username: ROOT.username, password: ROOT.password, confirmPassword: ROOT.password });
  if (!res.body.success) throw new Error(`setup failed: ${res.body.message}`);
  return new ApiClient(t.url).login(ROOT.username, ROOT.password);
}

let counter = 0;
/** A unique username of at most 12 characters. */
export function uname(prefix = 'u'): string {
  counter += 1;
  return `${prefix}${process.pid % 1000}${counter}`.slice(0, 12);
}

/** Creates a user through the admin API (and promotes it to admin when asked); returns a signed-in client. */
export async function makeUser(
  t: TestApp,
  root: ApiClient,
  opts: { role?: 'user' | 'admin'; username?: string; password?: string } = {},
): Promise<ApiClient & { username: string; password: string }> {
  const username = opts.username ?? uname();
  const password = opts.password ?? 'password-1';
  const created = await root.post('/api/user/', { username, password, display_name: username });
  if (!created.body.success) throw new Error(`create ${username}: ${created.body.message}`);
  const client = await new ApiClient(t.url).login(username, password);
  if (opts.role === 'admin') {
    let r = await root.post('/api/user/manage', { id: client.userId, action: 'promote' });
    if (r.status === 403 && r.body.data?.step_up_required) {
      // Promoting needs a fresh check: a suite that moved its clock on confirms root's password again.
      const check = await root.post('/api/user/step_up', { password: ROOT.password });
      if (!check.body.success) throw new Error(`root step-up: ${check.body.message}`);
      r = await root.post('/api/user/manage', { id: client.userId, action: 'promote' });
    }
    if (!r.body.success) throw new Error(`promote ${username}: ${r.body.message}`);
  }
  return Object.assign(client, { username, password });
}
