import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { NoticeDialog } from './notice-dialog';

vi.setConfig({ testTimeout: 20_000 });

describe('NoticeDialog', () => {
  it('opens with the notice and stays closed for the rest of the day after "close for today"', async () => {
    installFakeServer({ 'GET /api/notice': () => envelope('Maintenance **tonight**') });
    const user = userEvent.setup();
    const today = new Date(2026, 4, 17, 9, 30);
    const { unmount } = renderInConsole(<NoticeDialog today={today} />);

    expect(await screen.findByRole('dialog', { name: 'Notice' })).toBeTruthy();
    expect(screen.getByTestId('notice-content').textContent).toContain('Maintenance');
    await user.click(screen.getByRole('button', { name: 'Close for today' }));
    expect(window.localStorage.getItem('notice_close_date')).toBe('2026-05-17');
    unmount();

    const later = renderInConsole(<NoticeDialog today={new Date(2026, 4, 17, 22, 0)} />);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('dialog')).toBeNull();
    later.unmount();

    renderInConsole(<NoticeDialog today={new Date(2026, 4, 18, 8, 0)} />);
    expect(await screen.findByRole('dialog', { name: 'Notice' })).toBeTruthy();
  });

  it('shows a notice once per tab, again when its text changes, and never over the sign-in form', async () => {
    let notice = 'Maintenance tonight';
    installFakeServer({ 'GET /api/notice': () => envelope(notice) });
    const user = userEvent.setup();
    const login = renderInConsole(<NoticeDialog />, { path: '/login' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('dialog')).toBeNull();
    login.unmount();

    const first = renderInConsole(<NoticeDialog />, { path: '/token' });
    expect(await screen.findByRole('dialog', { name: 'Notice' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Close$/ }));
    first.unmount();

    // A reload or another page in the same tab: not again.
    const reload = renderInConsole(<NoticeDialog />, { path: '/log' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('dialog')).toBeNull();
    reload.unmount();

    notice = 'New maintenance window';
    renderInConsole(<NoticeDialog />, { path: '/log' });
    expect(await screen.findByRole('dialog', { name: 'Notice' })).toBeTruthy();
  });

  it('stays closed when the notice is empty', async () => {
    installFakeServer({ 'GET /api/notice': () => envelope('   ') });
    renderInConsole(<NoticeDialog />);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
