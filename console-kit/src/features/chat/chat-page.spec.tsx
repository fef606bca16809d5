import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { envelope, installFakeServer } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { ChatPage } from './chat-page';
import { Chat2LinkPage } from './chat2link-page';

function signIn() {
  window.localStorage.setItem(
    'user',
    JSON.stringify({ id: 7, username: 'me', display_name: 'me', role: 1, status: 1, group: 'default' }),
  );
}

const token = (id: number, status: number) => ({
  id,
  name: `t${id}`,
  key: 'abcd**wxyz',
  status,
  created_time: 1,
  expired_time: -1,
  remain_quota: 0,
  used_quota: 0,
  unlimited_quota: true,
  model_limits_enabled: false,
  model_limits: '',
  allow_ips: '',
  group: '',
});

const status = {
  setup: true,
  server_address: 'https://gw.example',
  chats: [{ One: 'https://one.example/?k={key}' }, { Two: 'https://two.example/#/?key={key}&url={address}' }],
};

describe('ChatPage', { timeout: 20_000 }, () => {
  it('frames the link of /chat/{id} with the first enabled token key', async () => {
    signIn();
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/token/': () =>
        envelope({ items: [token(1, 2), token(2, 1), token(3, 1)], total: 3, page: 1, page_size: 100 }),
      'POST /api/token/2/key': () => envelope({ key: 'sk-SECOND' }),
    });
    renderInConsole(<ChatPage />, { path: '/chat/1', route: '/chat/:id?' });
    const frame = await screen.findByTitle('Chat');
    expect(frame.getAttribute('src')).toBe(
      'https://two.example/#/?key=sk-SECOND&url=https%3A%2F%2Fgw.example',
    );
    const list = server.requests.find((request) => request.path === '/api/token/');
    expect(new URL(list!.request.url).searchParams.get('page_size')).toBe('100');
    expect(server.requests.filter((request) => request.path.endsWith('/key')).map((r) => r.path)).toEqual([
      '/api/token/2/key',
    ]);
  });

  it('without an enabled token shows the error and goes to /token after 1.5 s', async () => {
    signIn();
    installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/token/': () => envelope({ items: [token(1, 2)], total: 1, page: 1, page_size: 100 }),
    });
    renderInConsole(<ChatPage />, { path: '/chat/0', route: '/chat/:id?' });
    expect(
      (await screen.findAllByText('No enabled token available, please confirm a token is enabled!')).length,
    ).toBeGreaterThan(0);
    expect(screen.queryByTestId('location')).toBeNull();
    expect((await screen.findByTestId('location', {}, { timeout: 3000 })).textContent).toBe('/token');
  });

  it('an index without a configured link is a config error and fetches no key', async () => {
    signIn();
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/token/': () => envelope({ items: [token(1, 1)], total: 1, page: 1, page_size: 100 }),
    });
    renderInConsole(<ChatPage />, { path: '/chat/9', route: '/chat/:id?', language: 'zh' });
    expect((await screen.findAllByText('聊天链接配置错误，请联系管理员')).length).toBeGreaterThan(0);
    expect(server.requests.some((request) => request.path.endsWith('/key'))).toBe(false);
  });

  it('/chat2link without any chat link asks for the admin to configure one and fetches no token', async () => {
    signIn();
    const server = installFakeServer({
      'GET /api/status': () => envelope({ setup: true, chats: [], chat_link: '' }),
    });
    renderInConsole(<Chat2LinkPage />, { path: '/chat2link' });
    expect(
      (await screen.findAllByText('Please ask the admin to configure chat links')).length,
    ).toBeGreaterThan(0);
    expect(server.requests.some((request) => request.path.startsWith('/api/token'))).toBe(false);
  });

  it('a Chats value that is not a list cannot be parsed', async () => {
    signIn();
    installFakeServer({ 'GET /api/status': () => envelope({ setup: true, chats: 'oops' }) });
    renderInConsole(<ChatPage />, { path: '/chat/0', route: '/chat/:id?' });
    expect((await screen.findAllByText('Chat data parse failed')).length).toBeGreaterThan(0);
  });
});
