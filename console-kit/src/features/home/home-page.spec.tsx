import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { envelope, installFakeServer } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
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
    // The sanitizer is fetched on first use: the text shows once it has loaded, as safe HTML.
    await waitFor(async () =>
      expect((await screen.findByTestId('home-content')).innerHTML).toContain('Hello <strong>team</strong>'),
    );
  });
});
