import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { ChannelsPage } from './channels-page';
import type { Channel } from './channels-api';
import { firstByteLocales } from './first-byte-timeout-field';
import { firstByteProblem, readFirstByteTimeout, writeFirstByteTimeout } from './first-byte-timeout';

const CHANNEL: Channel = {
  id: 13,
  type: 14,
  key: '',
  openai_organization: null,
  test_model: null,
  status: 1,
  name: 'claude',
  weight: 0,
  created_time: 1_700_000_000,
  test_time: 0,
  response_time: 0,
  base_url: null,
  other: null,
  balance: 0,
  balance_updated_time: 0,
  models: 'claude-opus-4-6',
  group: 'default',
  used_quota: 0,
  model_mapping: null,
  status_code_mapping: null,
  priority: 0,
  auto_ban: 1,
  other_info: null,
  tag: null,
  setting: '{"system_prompt": "Be brief."}',
  param_override: null,
  max_input_tokens: 0,
  rpm_limit: 0,
  tpm_limit: 0,
  concurrency_limit: 0,
};

function server() {
  return installFakeServer({
    'GET /api/status': () => envelope({ setup: true, quota_per_unit: 500000, display_in_currency: true }),
    'GET /api/group/': () => envelope(['default']),
    'GET /api/channel/models': () => envelope([{ id: 'claude-opus-4-6', owned_by: 'Anthropic' }]),
    'GET /api/channel/models_enabled': () => envelope(['claude-opus-4-6']),
    'GET /api/models': () => envelope({ '14': ['claude-opus-4-6'] }),
    'GET /api/channel/': () =>
      envelope({ items: [CHANNEL], total: 1, page: 1, page_size: 10, type_counts: { 14: 1 } }),
    'GET /api/channel/13': () => envelope(CHANNEL),
    'PUT /api/channel/': () => envelope(CHANNEL),
  });
}

describe('first-byte timeout of a channel', { timeout: 60_000 }, () => {
  it('reads and writes first_byte_timeout in the extra settings, keeping the others', () => {
    expect(readFirstByteTimeout('')).toBe('');
    expect(readFirstByteTimeout('{"first_byte_timeout": 8}')).toBe('8');
    expect(readFirstByteTimeout('{oops')).toBeNull();
    expect(JSON.parse(writeFirstByteTimeout('{"system_prompt": "x"}', '12.5'))).toEqual({
      system_prompt: 'x',
      first_byte_timeout: 12.5,
    });
    expect(writeFirstByteTimeout('{"first_byte_timeout": 8}', '')).toBe('');
    expect(JSON.parse(writeFirstByteTimeout('{"first_byte_timeout": 8, "a": 1}', '0'))).toEqual({ a: 1 });
    expect(firstByteProblem('abc')).toBe('notNumber');
    expect(firstByteProblem('-1')).toBe('notNumber');
    expect(firstByteProblem('601')).toBe('tooLong');
    expect(firstByteProblem('30')).toBeNull();
    expect(Object.keys(firstByteLocales.en).sort()).toEqual(Object.keys(firstByteLocales.zh).sort());
  });

  it('is edited in the channel drawer and saved in the setting', async () => {
    window.localStorage.setItem(
      'user',
      JSON.stringify({ id: 1, username: 'me', display_name: 'me', role: 10, status: 1, group: 'default' }),
    );
    const fake = server();
    const user = userEvent.setup();
    renderInConsole(<ChannelsPage />, { path: '/channel' });
    const row = await screen.findByTestId('channel-row-13');
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('form', { name: 'Update channel' });
    const field = within(form).getByLabelText('First-byte timeout (seconds)');

    // A bad value shows its message and is not saved.
    fireEvent.change(field, { target: { value: '900' } });
    expect(await within(form).findByText('Must be at most 600 seconds')).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    expect(await within(form).findByTestId('channel-form-error')).toBeTruthy();
    expect(fake.requests.some((r) => r.method === 'PUT')).toBe(false);

    fireEvent.change(field, { target: { value: '15' } });
    expect(
      JSON.parse(within(form).getByLabelText<HTMLTextAreaElement>('Extra channel settings').value),
    ).toEqual({ system_prompt: 'Be brief.', first_byte_timeout: 15 });
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(fake.requests.some((r) => r.method === 'PUT')).toBe(true));
    const body = fake.requests.find((r) => r.method === 'PUT')!.body as { setting: string };
    expect(JSON.parse(body.setting)).toEqual({ system_prompt: 'Be brief.', first_byte_timeout: 15 });
  });
});
