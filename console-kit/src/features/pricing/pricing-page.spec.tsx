import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer, jsonResponse } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { PricingPage } from './pricing-page';
import { pricingLocales } from './pricing-locales';

vi.setConfig({ testTimeout: 20_000 });

const pricing = {
  success: true,
  message: '',
  data: [
    {
      model_name: 'gpt-4o',
      quota_type: 0,
      model_ratio: 1.25,
      completion_ratio: 4,
      model_price: 0,
      enable_groups: ['default', 'vip'],
    },
    {
      model_name: 'dall-e-3',
      quota_type: 1,
      model_ratio: 0,
      completion_ratio: 1,
      model_price: 0.04,
      enable_groups: ['default'],
    },
    {
      model_name: 'claude-3-haiku',
      quota_type: 0,
      model_ratio: 0.125,
      completion_ratio: 5,
      model_price: 0,
      enable_groups: ['vip'],
    },
  ],
  group_ratio: { default: 1, vip: 2 },
  usable_group: { default: '默认分组', vip: 'VIP' },
};

function serve(status: Record<string, unknown> = {}) {
  return installFakeServer({
    'GET /api/pricing': () => jsonResponse(pricing),
    'GET /api/status': () => envelope({ setup: true, ...status }),
  });
}

const rowNames = () =>
  screen
    .getAllByTestId(/^pricing-row-/)
    .map((row) => row.getAttribute('data-testid')?.slice('pricing-row-'.length));

describe('PricingPage', () => {
  it('warns a visitor, prices with the default ratio and lists usable models first', async () => {
    serve();
    renderInConsole(<PricingPage />, { path: '/pricing' });
    expect((await screen.findByTestId('pricing-banner')).textContent).toContain('default group ratio: 1');
    await screen.findByTestId('pricing-row-gpt-4o');
    expect(rowNames()).toEqual(['gpt-4o', 'dall-e-3', 'claude-3-haiku']);
    const gpt = screen.getByTestId('pricing-row-gpt-4o');
    expect(gpt.textContent).toContain('Prompt $2.5 / 1M tokens');
    expect(gpt.textContent).toContain('Completion $10 / 1M tokens');
    expect(screen.getByTestId('pricing-row-dall-e-3').textContent).toContain('$0.04 / call');
    // No top-up toggle unless online top-up is on.
    expect(screen.queryByLabelText('Show at top-up price')).toBeNull();
  });

  it('switches the viewed group from a chip, re-pricing and re-ordering', async () => {
    serve();
    renderInConsole(<PricingPage />, { path: '/pricing' });
    const row = await screen.findByTestId('pricing-row-gpt-4o');
    await userEvent.click(within(row).getByRole('button', { name: 'vip (ratio 2)' }));
    expect((await screen.findByTestId('pricing-viewing')).textContent).toContain(
      'Viewing group vip, ratio 2',
    );
    expect((await screen.findAllByText('Switched to group vip, ratio 2')).length).toBeGreaterThan(0);
    expect(rowNames()).toEqual(['gpt-4o', 'claude-3-haiku', 'dall-e-3']);
    expect(screen.getByTestId('pricing-row-gpt-4o').textContent).toContain('Prompt $5 / 1M tokens');
  });

  it('searches fuzzily, shows the ratio column and formula, and the top-up price in CNY', async () => {
    serve({ enable_online_topup: true, price: 7.3, usd_exchange_rate: 7.3 });
    renderInConsole(<PricingPage />, { path: '/pricing' });
    await screen.findByTestId('pricing-row-gpt-4o');
    await userEvent.type(screen.getByLabelText('Fuzzy search model names'), 'g4o');
    await waitFor(() => expect(rowNames()).toEqual(['gpt-4o']));
    await userEvent.click(screen.getByLabelText('Show ratios'));
    expect(screen.getByTestId('pricing-formula').textContent).toContain('model ratio × 2 × group ratio');
    expect(screen.getByTestId('pricing-row-gpt-4o').textContent).toContain('Completion ratio: 4.000');
    await userEvent.click(await screen.findByLabelText('Show at top-up price'));
    expect(screen.getByTestId('pricing-row-gpt-4o').textContent).toContain('Prompt $2.50 / 1M tokens');
    await userEvent.click(screen.getByRole('combobox', { name: 'Currency' }));
    await userEvent.click(await screen.findByRole('option', { name: 'CNY' }));
    expect(screen.getByTestId('pricing-row-gpt-4o').textContent).toContain('Prompt ¥18.25 / 1M tokens');
  });

  it('copies the selected model names, the button waiting for a selection', async () => {
    serve();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderInConsole(<PricingPage />, { path: '/pricing' });
    await screen.findByTestId('pricing-row-gpt-4o');
    const copy = screen.getByRole('button', { name: 'Copy selected models' });
    expect((copy as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByLabelText('Select gpt-4o'));
    await userEvent.click(screen.getByLabelText('Select claude-3-haiku'));
    await userEvent.click(copy);
    expect(writeText).toHaveBeenCalledWith('gpt-4o,claude-3-haiku');
  });
});

describe('pricing strings', () => {
  it('exist in both languages', () => {
    const keys = (node: object, prefix = ''): string[] =>
      Object.entries(node).flatMap(([key, value]) =>
        typeof value === 'string' ? [`${prefix}${key}`] : keys(value as object, `${prefix}${key}.`),
      );
    expect(keys(pricingLocales.en).sort()).toEqual(keys(pricingLocales.zh).sort());
  });
});
