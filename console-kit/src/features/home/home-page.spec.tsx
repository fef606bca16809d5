import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { envelope, installFakeServer } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { AboutPage } from '../about/about-page';
import { NoticeDialog } from '../notice/notice-dialog';
import userEvent from '@testing-library/user-event';
import { HomePage } from './home-page';

vi.setConfig({ testTimeout: 20_000 });

describe('HomePage', () => {
  it('shows the default landing when no content is set', async () => {
    installFakeServer({
      'GET /api/status': () => envelope({ setup: true, system_name: 'Acme AI', version: 'v1.2.3' }),
      'GET /api/home_page_content': () => envelope(''),
    });
    renderInConsole(<HomePage />);
    expect(await screen.findByRole('heading', { name: 'Welcome to Acme AI' })).toBeTruthy();
    expect(screen.getByText('Version: v1.2.3')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
  });

  it('shows a URL as a page in an iframe', async () => {
    installFakeServer({ 'GET /api/home_page_content': () => envelope(' https://intranet.example.com/ai ') });
    renderInConsole(<HomePage />);
    const frame = await screen.findByTitle('Home page');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe('https://intranet.example.com/ai');
  });

  it('renders markdown content', async () => {
    installFakeServer({ 'GET /api/home_page_content': () => envelope('# Hello **team**') });
    renderInConsole(<HomePage />);
    expect((await screen.findByTestId('home-content')).innerHTML).toContain('Hello');
  });
});

describe('AboutPage', () => {
  it('explains where to set the text when none is set', async () => {
    installFakeServer({ 'GET /api/about': () => envelope('') });
    renderInConsole(<AboutPage />);
    expect(await screen.findByText('The administrator has not set any about content yet')).toBeTruthy();
  });
});

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
