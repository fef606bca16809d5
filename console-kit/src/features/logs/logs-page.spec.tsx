import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { LogsPage } from './logs-page';
import type { LogEntry } from './log-rules';

function signInAs(role: number) {
  window.localStorage.setItem(
    'user',
    JSON.stringify({ id: 1, username: 'me', display_name: 'me', role, status: 1, group: 'default' }),
  );
}

const status = { setup: true, quota_per_unit: 500000, display_in_currency: false };

function entry(id: number, fields: Partial<LogEntry> = {}): LogEntry {
  return {
    id,
    created_at: 1735689600,
    type: 2,
    content: '',
    user_id: 7,
    username: 'alice',
    token_id: 5,
    token_name: 'my key',
    model_name: 'gpt-4o',
    quota: 38,
    prompt_tokens: 10,
    completion_tokens: 5,
    use_time: 120,
    is_stream: true,
    group: 'default',
    ip: '',
    request_id: 'req-abc',
    other: JSON.stringify({
      frt: 4200,
      model_ratio: 1.25,
      group_ratio: 1,
      completion_ratio: 4,
      cache_tokens: 3,
      is_model_mapped: true,
      upstream_model_name: 'gpt-4o-2024-08-06',
      reasoning_effort: 'high',
      admin_info: { use_channel: [2, 4] },
      brand_new_key: 'kept',
    }),
    channel: 4,
    channel_name: 'openai-main',
    ...fields,
  };
}

function listOf(items: LogEntry[]) {
  return envelope({ items, total: items.length, page: 1, page_size: 10 });
}

describe('LogsPage', { timeout: 20_000 }, () => {
  it('shows stat chips, admin columns, colours, and every other key when a row is expanded', async () => {
    signInAs(100);
    const { requests } = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/log/': () => listOf([entry(1)]),
      'GET /api/log/stat': () => envelope({ quota: 1234, rpm: 3, tpm: 45 }),
      'GET /api/user/7/summary': () =>
        envelope({ username: 'alice', quota: 9000, used_quota: 100, request_count: 17 }),
    });
    renderInConsole(<LogsPage />, { path: '/log' });

    const row = await screen.findByTestId('log-row-1');
    const stat = screen.getByTestId('log-stat');
    expect(within(stat).getByText('Quota used: 1234')).toBeTruthy();
    expect(within(stat).getByText('RPM: 3')).toBeTruthy();
    expect(within(stat).getByText('TPM: 45')).toBeTruthy();
    expect(within(row).getByText('Channels: 2 → 4')).toBeTruthy();
    expect(within(row).getByText('Mapped: gpt-4o-2024-08-06')).toBeTruthy();
    // 120 s use time is orange, a 4.2 s first token orange too.
    expect(within(row).getByTestId('use-time').className).toContain('Warning');
    expect(within(row).getByTestId('first-token').textContent).toBe('First token 4.2 s');

    // The admin list and stat carry the default range and no blank filters.
    const list = requests.find((request) => request.path === '/api/log/');
    const params = new URL(list!.request.url).searchParams;
    expect(params.get('p')).toBe('1');
    expect(params.get('start_timestamp')).toMatch(/^\d+$/);
    expect(params.has('model_name')).toBe(false);

    await userEvent.click(row);
    const details = await screen.findByTestId('log-details-1');
    const text = details.textContent ?? '';
    // A billing line people can read: 1.25 × $2 per million input tokens, 4 × that for output.
    expect(text).toContain(
      'BillingInput 10 tokens (3 cached × 1) × $2.5/1M + output 5 tokens × $10/1M, × group ratio 1 = 38',
    );
    for (const expected of [
      'Model ratio1.25',
      'Completion ratio4',
      'Cache tokens3',
      'Reasoning efforthigh',
      'Model mappedYes',
      'Upstream modelgpt-4o-2024-08-06',
      'First token time (ms)4200',
      'Channels used2 → 4',
      'brand_new_keykept',
      'Request IDreq-abc',
    ]) {
      expect(text).toContain(expected);
    }

    await userEvent.click(within(row).getByRole('button', { name: 'Show user info: alice' }));
    const info = await screen.findByTestId('user-info');
    expect(info.textContent).toContain('17');
    expect(info.textContent).toContain('9000');
  });

  it('shows a cheap call cost with enough decimals, and "< 1 s" for a sub-second call', async () => {
    signInAs(1);
    installFakeServer({
      'GET /api/status': () => envelope({ ...status, display_in_currency: true }),
      'GET /api/log/self/': () =>
        listOf([entry(1, { quota: 75, use_time: 0, other: JSON.stringify({ frt: 300 }) })]),
      'GET /api/log/self/stat': () => envelope({ quota: 75, rpm: 0, tpm: 0 }),
    });
    renderInConsole(<LogsPage />, { path: '/log' });
    const row = await screen.findByTestId('log-row-1');
    await waitFor(() => expect(within(row).getByText('$0.000150')).toBeTruthy());
    expect(within(row).getByTestId('use-time').textContent).toBe('< 1 s');
    expect(within(row).getByTestId('first-token').textContent).toBe('First token 0.3 s');
  });

  it('sends the filters a user typed, never username or channel, and the type from the dropdown', async () => {
    signInAs(1);
    const { requests } = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/log/self/': () => listOf([entry(2, { channel: undefined, other: '{}' })]),
      'GET /api/log/self/stat': () => envelope({ quota: 0, rpm: 0, tpm: 0 }),
    });
    renderInConsole(<LogsPage />, { path: '/log' });
    const row = await screen.findByTestId('log-row-2');
    expect(within(row).queryByText(/Channels:/)).toBeNull();
    expect(screen.queryByLabelText('Username')).toBeNull();
    expect(screen.queryByLabelText('Channel ID')).toBeNull();

    await userEvent.type(screen.getByLabelText('Model name'), 'gpt-4o');
    await userEvent.type(screen.getByLabelText('Token name'), 'my key');
    await userEvent.type(screen.getByLabelText('Group'), 'vip');
    await userEvent.type(screen.getByLabelText('Request ID'), 'req-9');
    await userEvent.click(screen.getByRole('button', { name: 'Query' }));
    await waitFor(() => {
      const last = requests.filter((request) => request.path === '/api/log/self/').at(-1)!;
      const params = new URL(last.request.url).searchParams;
      expect(params.get('model_name')).toBe('gpt-4o');
      expect(params.get('token_name')).toBe('my key');
      expect(params.get('group')).toBe('vip');
      expect(params.get('request_id')).toBe('req-9');
      expect(params.has('username')).toBe(false);
    });
    const stat = requests.filter((request) => request.path === '/api/log/self/stat').at(-1)!;
    expect(new URL(stat.request.url).searchParams.get('model_name')).toBe('gpt-4o');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Log type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Error' }));
    await waitFor(() => {
      const last = requests.filter((request) => request.path === '/api/log/self/').at(-1)!;
      expect(new URL(last.request.url).searchParams.get('type')).toBe('5');
    });
  });

  it('labels content_logged in the expanded details by its translated name', async () => {
    signInAs(100);
    installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/log/': () => listOf([entry(1, { other: JSON.stringify({ content_logged: true }) })]),
      'GET /api/log/stat': () => envelope({ quota: 0, rpm: 0, tpm: 0 }),
      'GET /api/user/7/summary': () =>
        envelope({ username: 'alice', quota: 0, used_quota: 0, request_count: 0 }),
    });
    renderInConsole(<LogsPage />, { path: '/log' });
    await userEvent.click(await screen.findByTestId('log-row-1'));
    const text = (await screen.findByTestId('log-details-1')).textContent ?? '';
    expect(text).toContain('Request and response storedYes');
    expect(text).not.toContain('content_logged');
  });

  it('names the client type in the console’s language, and an unknown one as recorded', async () => {
    signInAs(100);
    installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/log/': () =>
        listOf([
          entry(1, { other: JSON.stringify({ client_type: 'other' }) }),
          entry(2, { other: JSON.stringify({ client_type: 'openai-python' }) }),
          entry(3, { other: JSON.stringify({ client_type: 'lynx' }) }),
        ]),
      'GET /api/log/stat': () => envelope({ quota: 0, rpm: 0, tpm: 0 }),
    });
    renderInConsole(<LogsPage />, { path: '/log', language: 'zh' });
    const details = async (id: number) => {
      await userEvent.click(await screen.findByTestId(`log-row-${id}`));
      return (await screen.findByTestId(`log-details-${id}`)).textContent ?? '';
    };
    expect(await details(1)).toContain('客户端类型其他客户端');
    expect(await details(2)).toContain('客户端类型OpenAI Python 库');
    expect(await details(3)).toContain('客户端类型lynx');
  });

  it('hides a column from the settings dialog and remembers it', async () => {
    signInAs(1);
    installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/log/self/': () => listOf([entry(3)]),
      'GET /api/log/self/stat': () => envelope({ quota: 0, rpm: 0, tpm: 0 }),
    });
    renderInConsole(<LogsPage />, { path: '/log' });
    await screen.findByTestId('log-row-3');
    expect(screen.getByRole('columnheader', { name: 'Completion' })).toBeTruthy();
    // Admin-only columns are not offered to a user.
    expect(screen.queryByRole('columnheader', { name: 'Retry' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Column settings' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText('Retry')).toBeNull();
    await userEvent.click(within(dialog).getByLabelText('Completion'));
    expect(screen.queryByRole('columnheader', { name: 'Completion' })).toBeNull();
    expect(JSON.parse(window.localStorage.getItem('logs-table-columns') ?? '{}')).toMatchObject({
      completion: false,
    });
  });
});
