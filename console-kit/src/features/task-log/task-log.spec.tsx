import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { TaskLogPage } from './task-log-page';
import {
  emptyTaskFilters,
  taskActionKey,
  taskDurationSeconds,
  taskListUrl,
  taskStatusKey,
  type GenericTask,
} from './task-rules';

describe('task log rules', () => {
  it('starts today at 00:00 with no end, in seconds', () => {
    const filters = emptyTaskFilters(dayjs('2026-05-06T09:30:00'));
    expect(filters.start).toBe(dayjs('2026-05-06T00:00:00').unix());
    expect(filters.end).toBe(0);
    expect(taskListUrl(filters, false, 1, 10)).toBe(
      `/api/task/self?p=1&page_size=10&start_timestamp=${filters.start}`,
    );
    expect(taskListUrl({ ...filters, channelId: '2', taskId: 't-1', end: 1800000000 }, true, 3, 50)).toBe(
      `/api/task/?p=3&page_size=50&channel_id=2&task_id=t-1&start_timestamp=${filters.start}&end_timestamp=1800000000`,
    );
  });

  it('maps statuses, actions and durations', () => {
    expect(taskStatusKey('')).toBe('SUBMITTING');
    expect(taskStatusKey('QUEUED')).toBe('QUEUED');
    expect(taskStatusKey('weird')).toBe('other');
    expect(taskActionKey('LYRICS')).toBe('LYRICS');
    expect(taskActionKey('VIDEO')).toBe('other');
    expect(taskDurationSeconds(100, 170)).toBe(70);
    expect(taskDurationSeconds(100, 0)).toBeNull();
  });
});

const task: GenericTask = {
  id: 4,
  user_id: 1,
  channel_id: 6,
  created_at: 1700000000,
  updated_at: 1700000030,
  submit_time: 1700000000,
  start_time: 1700000001,
  finish_time: 1700000030,
  platform: 'suno',
  action: 'MUSIC',
  task_id: 'suno-task-1',
  status: 'SUCCESS',
  progress: '100%',
  fail_reason: '',
  quota: 0,
  data: { clips: [] },
};

describe('TaskLogPage', { timeout: 20_000 }, () => {
  it('lists every column and shows the full record as JSON', async () => {
    window.localStorage.setItem('user', JSON.stringify({ id: 1, username: 'r', role: 100, status: 1 }));
    installFakeServer({
      'GET /api/status': () => envelope({ setup: true }),
      'GET /api/task/': () => envelope({ items: [task], total: 1, page: 1, page_size: 10 }),
    });
    renderInConsole(<TaskLogPage />, { path: '/task' });
    const row = await screen.findByTestId('task-row-4');
    expect(within(row).getByText('Suno')).toBeTruthy();
    expect(within(row).getByText('Music')).toBeTruthy();
    expect(within(row).getByText('Success')).toBeTruthy();
    expect(within(row).getByText('30 s')).toBeTruthy();
    expect(within(row).getByText('100%')).toBeTruthy();
    await userEvent.click(within(row).getByText('suno-task-1'));
    const record = JSON.parse(
      (await screen.findByTestId('task-modal-text')).textContent ?? '',
    ) as GenericTask;
    expect(record).toEqual(task);
  });
});
