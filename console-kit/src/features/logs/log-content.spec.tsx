import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer, jsonResponse } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { LogsPage } from './logs-page';
import type { LogEntry } from './log-rules';
import { readChannelContentLog, writeChannelContentLog } from '../../components/content-log-switch';
import { prettyBody } from './log-content';

function signInAs(role: number) {
  window.localStorage.setItem(
    'user',
    JSON.stringify({ id: 1, username: 'me', display_name: 'me', role, status: 1, group: 'default' }),
  );
}

const status = { setup: true, quota_per_unit: 500000, display_in_currency: false };

function entry(id: number, other: Record<string, unknown>): LogEntry {
  return {
    id,
    created_at: 1735689600,
    type: 2,
    content: '',
    user_id: 1,
    username: 'me',
    token_id: 5,
    token_name: 'my key',
    model_name: 'gpt-4o',
    quota: 38,
    prompt_tokens: 10,
    completion_tokens: 5,
    use_time: 1,
    is_stream: false,
    group: 'default',
    ip: '',
    request_id: `req-${id}`,
    other: JSON.stringify(other),
  };
}

describe('log content', { timeout: 20_000 }, () => {
  it('offers the stored request and response on rows that have them, and only there', async () => {
    signInAs(1);
    const { requests } = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/log/self/': () =>
        envelope({
          items: [entry(1, { content_logged: true }), entry(2, {})],
          total: 2,
          page: 1,
          page_size: 10,
        }),
      'GET /api/log/self/stat': () => envelope({ quota: 0, rpm: 0, tpm: 0 }),
      'GET /api/log/1/content': () =>
        envelope({
          log_id: 1,
          request_id: 'req-1',
          created_at: 1735689600,
          request: '{"model":"gpt-4o","messages":[{"role":"user","content":"[REDACTED]"}]}',
          response: '{"choices":[{"message":{"content":"streamed answer"}}]}',
          meta: {
            status: 200,
            path: '/v1/chat/completions',
            response_kind: 'stream',
            request_truncated: true,
            response_truncated: false,
            headers: { authorization: '[REDACTED]' },
          },
        }),
    });
    renderInConsole(<LogsPage />, { path: '/log' });

    const row = await screen.findByTestId('log-row-1');
    expect(within(await screen.findByTestId('log-row-2')).queryByTestId('log-content-2')).toBeNull();
    await userEvent.click(within(row).getByTestId('log-content-1'));
    const view = await screen.findByTestId('log-content');
    expect(requests.some((r) => r.method === 'GET' && r.path === '/api/log/1/content')).toBe(true);
    expect(within(view).getByText(/"content": "\[REDACTED\]"/)).toBeTruthy();
    expect(within(view).getByText(/streamed answer/)).toBeTruthy();
    expect(within(view).getByText('Truncated')).toBeTruthy();
    expect(within(view).getByText('Stream (reassembled)')).toBeTruthy();
    expect(within(view).getByText('authorization: [REDACTED]')).toBeTruthy();
    // The dialog does not toggle the row underneath.
    expect(screen.queryByTestId('log-details-1')).toBeNull();
  });

  it('shows the server’s refusal when users may not read content', async () => {
    signInAs(1);
    installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/log/self/': () =>
        envelope({ items: [entry(3, { content_logged: true })], total: 1, page: 1, page_size: 10 }),
      'GET /api/log/self/stat': () => envelope({ quota: 0, rpm: 0, tpm: 0 }),
      'GET /api/log/3/content': () =>
        jsonResponse(
          {
            success: false,
            message: 'The operator does not let users view their own request content',
            data: null,
          },
          403,
        ),
    });
    renderInConsole(<LogsPage />, { path: '/log' });
    await userEvent.click(within(await screen.findByTestId('log-row-3')).getByTestId('log-content-3'));
    expect(await screen.findByText(/does not let users view/)).toBeTruthy();
  });

  it('keeps the channel switch in the extra settings JSON, other keys untouched', () => {
    expect(readChannelContentLog('')).toBe(false);
    expect(readChannelContentLog('{"content_log":true,"x":1}')).toBe(true);
    expect(readChannelContentLog('[1]')).toBeNull();
    expect(readChannelContentLog('{broken')).toBeNull();
    expect(JSON.parse(writeChannelContentLog('{"first_byte_timeout":5}', true))).toEqual({
      first_byte_timeout: 5,
      content_log: true,
    });
    expect(writeChannelContentLog('{"content_log":true}', false)).toBe('');
    expect(prettyBody('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyBody('data: x')).toBe('data: x');
  });
});
