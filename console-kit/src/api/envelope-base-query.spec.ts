// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { createConsoleRuntime } from '../provider/console-runtime';
import { createConsoleStorage, createMemoryBackingStore, StorageKeys } from '../provider/console-storage';
import { createConsoleStore } from '../provider/console-store';
import { envelope, installFakeServer, jsonResponse, refusal } from '../test/fake-server';
import { gatehouseApi } from './gatehouse-api';
import { SESSION_EXPIRED_PATH } from './envelope-base-query';

const storedUser = { id: 42, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' };

function setUp({ signedIn = true } = {}) {
  const storage = createConsoleStorage('', createMemoryBackingStore());
  if (signedIn) {
    storage.setJson(StorageKeys.user, storedUser);
  }
  const runtime = createConsoleRuntime('http://gatehouse.test', storage);
  const navigate = vi.fn<(to: string) => void>();
  runtime.attachNavigator(navigate);
  const store = createConsoleStore(runtime);
  return { storage, store, navigate };
}

describe('envelope base query', () => {
  it('returns the envelope data and sends the session headers', async () => {
    const server = installFakeServer({
      'GET /api/status': () => envelope({ setup: true, system_name: 'Gatehouse', version: 'v0.1.0' }),
    });
    const { store } = setUp();

    const result = await store.dispatch(gatehouseApi.endpoints.getStatus.initiate());

    expect(result.data).toEqual({ setup: true, system_name: 'Gatehouse', version: 'v0.1.0' });
    const [call] = server.requests;
    expect(call?.request.url).toBe('http://gatehouse.test/api/status');
    expect(call?.request.headers.get('New-Api-User')).toBe('42');
    expect(call?.request.headers.get('Cache-Control')).toBe('no-store');
    expect(call?.request.credentials).toBe('include');
  });

  it('sends the interface language, and the new one after a switch', async () => {
    const server = installFakeServer({
      'GET /api/status': () => envelope({ setup: true }),
    });
    const storage = createConsoleStorage('', createMemoryBackingStore());
    const runtime = createConsoleRuntime('http://gatehouse.test', storage);
    const store = createConsoleStore(runtime);
    runtime.setLanguage('en');
    await store.dispatch(gatehouseApi.endpoints.getStatus.initiate(undefined, { forceRefetch: true }));
    runtime.setLanguage('zh');
    await store.dispatch(gatehouseApi.endpoints.getStatus.initiate(undefined, { forceRefetch: true }));
    expect(server.requests.map((call) => call.request.headers.get('Accept-Language'))).toEqual(['en', 'zh']);
  });

  it('sends the access token and its user id when mounted with `auth`', async () => {
    const server = installFakeServer({
      'GET /api/user/self': () => envelope({ id: 77, username: 'portal-bot' }),
    });
    const storage = createConsoleStorage('', createMemoryBackingStore());
    storage.setJson(StorageKeys.user, storedUser);
    const runtime = createConsoleRuntime('http://gatehouse.test', storage, {
      userId: 77,
      accessToken: 'tok-123',
    });
    const store = createConsoleStore(runtime);
    expect(store.getState().session.user?.id).toBe(77);

    await store.dispatch(gatehouseApi.endpoints.getSelf.initiate());

    const headers = server.requests[0]?.request.headers;
    expect(headers?.get('Authorization')).toBe('Bearer tok-123');
    expect(headers?.get('New-Api-User')).toBe('77');
  });

  it('sends no user header when nobody is signed in', async () => {
    const server = installFakeServer({ 'GET /api/setup': () => envelope({ status: false }) });
    const { store } = setUp({ signedIn: false });

    await store.dispatch(gatehouseApi.endpoints.getSetup.initiate());

    expect(server.requests[0]?.request.headers.has('New-Api-User')).toBe(false);
  });

  it('turns success:false into an error carrying the server message', async () => {
    installFakeServer({ 'POST /api/user/login': () => refusal('用户名或密码错误，或用户已被封禁') });
    const { store, storage, navigate } = setUp({ signedIn: false });

    const result = await store.dispatch(
      gatehouseApi.endpoints.login.initiate({ username: 'alice', password: 'wrong-password' }),
    );

    expect(result.error).toEqual({ status: 'ENVELOPE', message: '用户名或密码错误，或用户已被封禁' });
    expect(storage.getItem(StorageKeys.user)).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('on 401 forgets the stored user and sends the browser to the login page', async () => {
    installFakeServer({
      'GET /api/user/self': () => jsonResponse({ success: false, message: '未登录' }, 401),
    });
    const { store, storage, navigate } = setUp();
    expect(store.getState().session.user?.id).toBe(42);

    const result = await store.dispatch(gatehouseApi.endpoints.getSelf.initiate());

    expect(result.error).toMatchObject({ status: 401, message: '未登录' });
    expect(storage.getItem(StorageKeys.user)).toBeNull();
    expect(store.getState().session.user).toBeNull();
    expect(navigate).toHaveBeenCalledWith(SESSION_EXPIRED_PATH);
    expect(SESSION_EXPIRED_PATH).toBe('/login?expired=true');
  });

  it('keeps the session on other HTTP failures and reports their status', async () => {
    installFakeServer({ 'GET /api/user/self': () => new Response('<html>busy</html>', { status: 429 }) });
    const { store, storage, navigate } = setUp();

    const result = await store.dispatch(gatehouseApi.endpoints.getSelf.initiate());

    expect(result.error).toMatchObject({ status: 429 });
    expect(storage.getJson(StorageKeys.user)).toEqual(storedUser);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('reports an unreachable server as a network error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('fetch failed'))),
    );
    const { store } = setUp();

    const result = await store.dispatch(gatehouseApi.endpoints.getStatus.initiate());

    expect(result.error).toMatchObject({ status: 'NETWORK' });
  });

  it('keeps the public status in storage for the next load', async () => {
    installFakeServer({ 'GET /api/status': () => envelope({ setup: true, system_name: 'Acme AI' }) });
    const { store, storage } = setUp();

    await store.dispatch(gatehouseApi.endpoints.getStatus.initiate());

    expect(storage.getJson(StorageKeys.status)).toEqual({ setup: true, system_name: 'Acme AI' });
  });
});
