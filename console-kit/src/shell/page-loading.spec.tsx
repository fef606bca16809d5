import { lazy, type ComponentType } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInConsole } from '../test/render-in-console';
import { PageSuspense } from './page-loading';

// Rendering MUI pages in happy-dom on a shared two-core machine can take seconds.
vi.setConfig({ testTimeout: 20_000 });

function deferredPage() {
  let settle: { resolve: (page: ComponentType) => void; reject: (error: Error) => void } | undefined;
  const Page = lazy(
    () =>
      new Promise<{ default: ComponentType }>((resolve, reject) => {
        settle = { resolve: (page) => resolve({ default: page }), reject };
      }),
  );
  return {
    Page,
    resolve: (page: ComponentType) => settle?.resolve(page),
    reject: (error: Error) => settle?.reject(error),
  };
}

describe('PageSuspense', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows a labelled progress indicator until the page code arrives, then the page', async () => {
    const { Page, resolve } = deferredPage();
    renderInConsole(
      <PageSuspense>
        <Page />
      </PageSuspense>,
    );

    expect(await screen.findByRole('progressbar', { name: 'Loading page' })).toBeTruthy();
    expect(screen.getByRole('status')).toBeTruthy();
    resolve(() => <h1>Tokens</h1>);

    expect(await screen.findByRole('heading', { name: 'Tokens' })).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('offers a reload when the page code cannot be fetched', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { Page, reject } = deferredPage();
    renderInConsole(
      <PageSuspense>
        <Page />
      </PageSuspense>,
      { language: 'zh' },
    );

    await screen.findByRole('progressbar', { name: '页面加载中' });
    reject(new TypeError('Failed to fetch dynamically imported module'));

    expect(await screen.findByText('页面加载失败，请刷新后重试')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '刷新' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
