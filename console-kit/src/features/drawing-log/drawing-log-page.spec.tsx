import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { DrawingLogPage } from './drawing-log-page';
import type { DrawingTask } from './drawing-rules';

function signInAs(role: number) {
  window.localStorage.setItem(
    'user',
    JSON.stringify({ id: 1, username: 'me', display_name: 'me', role, status: 1, group: 'default' }),
  );
}

const task: DrawingTask = {
  id: 9,
  user_id: 1,
  channel_id: 3,
  created_at: 1700000000,
  submit_time: 1700000000000,
  start_time: 1700000001000,
  finish_time: 1700000075000,
  action: 'IMAGINE',
  mj_id: 'mj-123',
  code: 1,
  status: 'FAILURE',
  progress: '40%',
  image_url: 'https://cdn.example.com/x.png',
  prompt: 'a cat',
  prompt_en: 'a cat',
  description: '',
  fail_reason: 'banned prompt: the full reason',
  quota: 0,
};

describe('DrawingLogPage', { timeout: 20_000 }, () => {
  it('shows the callback banner to admins while the callback is off, every column, and the modals', async () => {
    signInAs(10);
    const { requests } = installFakeServer({
      'GET /api/status': () => envelope({ setup: true, mj_notify_enabled: false }),
      'GET /api/mj/': () => envelope({ items: [task], total: 1, page: 1, page_size: 10 }),
    });
    renderInConsole(<DrawingLogPage />, { path: '/midjourney' });
    const row = await screen.findByTestId('drawing-row-9');
    expect(await screen.findByTestId('mj-callback-banner')).toBeTruthy();
    expect(within(row).getByText('75 s')).toBeTruthy();
    expect(within(row).getByText('Imagine')).toBeTruthy();
    expect(within(row).getByText('Submitted')).toBeTruthy();
    expect(within(row).getByText('Failed')).toBeTruthy();
    expect(within(row).getByText('3')).toBeTruthy();
    const params = new URL(requests.find((r) => r.path === '/api/mj/')!.request.url).searchParams;
    expect(Number(params.get('start_timestamp'))).toBeGreaterThan(1e12);

    await userEvent.click(within(row).getByText('banned prompt: the full reason'));
    expect((await screen.findByTestId('drawing-text')).textContent).toBe('banned prompt: the full reason');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('drawing-text')).toBeNull());

    await userEvent.click(within(row).getByText('mj-123'));
    const record = JSON.parse((await screen.findByTestId('drawing-text')).textContent ?? '') as DrawingTask;
    expect(record).toEqual(task);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('drawing-text')).toBeNull());

    await userEvent.click(within(row).getByRole('button', { name: 'View image' }));
    const image = await screen.findByTestId('image-viewer');
    expect(image.getAttribute('src')).toBe('https://cdn.example.com/x.png');
  });

  it('users read their own tasks, without channel column or banner', async () => {
    signInAs(1);
    installFakeServer({
      'GET /api/status': () => envelope({ setup: true, mj_notify_enabled: false }),
      'GET /api/mj/self/': () =>
        envelope({
          items: [{ ...task, channel_id: undefined, image_url: '' }],
          total: 1,
          page: 1,
          page_size: 10,
        }),
    });
    renderInConsole(<DrawingLogPage />, { path: '/midjourney' });
    const row = await screen.findByTestId('drawing-row-9');
    expect(screen.queryByTestId('mj-callback-banner')).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Channel' })).toBeNull();
    expect(screen.queryByLabelText('Channel ID')).toBeNull();
    expect(within(row).queryByRole('button', { name: 'View image' })).toBeNull();
  });

  it('hides the banner once the callback is on', async () => {
    signInAs(100);
    installFakeServer({
      'GET /api/status': () => envelope({ setup: true, mj_notify_enabled: true }),
      'GET /api/mj/': () => envelope({ items: [], total: 0, page: 1, page_size: 10 }),
    });
    renderInConsole(<DrawingLogPage />, { path: '/midjourney' });
    await screen.findByText('No drawing tasks');
    expect(screen.queryByTestId('mj-callback-banner')).toBeNull();
  });
});
