import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer, jsonResponse, refusal } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { ChannelsPage } from './channels-page';
import type { Channel, ChannelTagRow } from './channels-api';

function makeChannel(id: number, fields: Partial<Channel> = {}): Channel {
  return {
    id,
    type: 1,
    key: '',
    openai_organization: null,
    test_model: null,
    status: 1,
    name: `ch${id}`,
    weight: 0,
    created_time: 1_700_000_000,
    test_time: 0,
    response_time: 0,
    base_url: null,
    other: null,
    balance: 0,
    balance_updated_time: 0,
    models: 'gpt-4o,gpt-4o-mini',
    group: 'default',
    used_quota: 0,
    model_mapping: null,
    status_code_mapping: null,
    priority: 0,
    auto_ban: 1,
    other_info: null,
    tag: null,
    setting: null,
    param_override: null,
    max_input_tokens: 0,
    rpm_limit: 0,
    tpm_limit: 0,
    concurrency_limit: 0,
    ...fields,
  };
}

function signInAs(role: number) {
  window.localStorage.setItem(
    'user',
    JSON.stringify({ id: 1, username: 'me', display_name: 'me', role, status: 1, group: 'default' }),
  );
}

const status = { setup: true, quota_per_unit: 500000, display_in_currency: true };

function page(items: (Channel | ChannelTagRow)[], typeCounts: Record<string, number> = { 1: items.length }) {
  return envelope({ items, total: items.length, page: 1, page_size: 10, type_counts: typeCounts });
}

function tagRow(tag: string, children: Channel[], fields: Partial<ChannelTagRow> = {}): ChannelTagRow {
  return {
    is_tag: true,
    tag,
    name: tag,
    key: '',
    type: 1,
    status: children.some((c) => c.status === 1) ? 1 : 2,
    priority: null,
    weight: null,
    models: 'gpt-4o',
    group: 'default',
    used_quota: 0,
    balance: 0,
    response_time: 0,
    created_time: 0,
    test_time: 0,
    children,
    ...fields,
  };
}

const base = {
  'GET /api/status': () => envelope(status),
  'GET /api/group/': () => envelope(['default', 'vip']),
  'GET /api/channel/models': () => envelope([{ id: 'gpt-4o', owned_by: 'OpenAI' }]),
  'GET /api/channel/models_enabled': () => envelope(['gpt-4o']),
};

describe('ChannelsPage', { timeout: 30_000 }, () => {
  it('refuses ordinary users', async () => {
    signInAs(1);
    installFakeServer(base);
    renderInConsole(<ChannelsPage />, { path: '/channel' });
    expect(await screen.findByText('Only administrators can manage channels')).toBeTruthy();
  });

  it('shows type tabs, greys disabled rows, colours response times and explains auto-disabling', async () => {
    signInAs(10);
    installFakeServer({
      ...base,
      'GET /api/channel/': () =>
        page(
          [
            makeChannel(1, { response_time: 800 }),
            makeChannel(2, { status: 2, response_time: 6000, type: 14 }),
            makeChannel(3, {
              status: 3,
              other_info: JSON.stringify({ status_reason: 'bad key', status_time: 1_700_000_000 }),
            }),
          ],
          { 1: 2, 14: 1 },
        ),
    });
    const user = userEvent.setup();
    renderInConsole(<ChannelsPage />, { path: '/channel' });

    const first = await screen.findByTestId('channel-row-1');
    expect(first.getAttribute('data-enabled')).toBe('true');
    expect(screen.getByTestId('channel-row-2').getAttribute('data-enabled')).toBe('false');
    expect(within(first).getByText('0.80 s').closest('[data-tone]')?.getAttribute('data-tone')).toBe('green');
    expect(
      within(screen.getByTestId('channel-row-2'))
        .getByText('6.00 s')
        .closest('[data-tone]')
        ?.getAttribute('data-tone'),
    ).toBe('red');
    expect(screen.getByRole('tab', { name: 'All (3)' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Anthropic Claude (1)' })).toBeTruthy();

    await user.hover(within(screen.getByTestId('channel-row-3')).getByText('Auto-disabled'));
    expect(await screen.findByText('Reason: bad key')).toBeTruthy();
  });

  it('aggregates tags: blank priority when children differ, expandable children, tag enable/disable', async () => {
    signInAs(10);
    window.localStorage.setItem('channels-tag-mode', 'true');
    const children = [
      makeChannel(4, { tag: 'pool', priority: 1 }),
      makeChannel(5, { tag: 'pool', priority: 2, status: 2 }),
    ];
    const server = installFakeServer({
      ...base,
      'GET /api/channel/': () => page([tagRow('pool', children, { weight: 3 })]),
      'POST /api/channel/tag/disabled': () => envelope(2),
    });
    const user = userEvent.setup();
    renderInConsole(<ChannelsPage />, { path: '/channel' });

    const row = await screen.findByTestId('tag-row-pool');
    expect(row.getAttribute('data-enabled')).toBe('true');
    expect(within(row).getByLabelText<HTMLInputElement>('Priority pool').value).toBe('');
    expect(within(row).getByLabelText<HTMLInputElement>('Weight pool').value).toBe('3');
    expect(
      new URL(server.requests.find((r) => r.path === '/api/channel/')!.request.url).searchParams.get(
        'tag_mode',
      ),
    ).toBe('true');

    await user.click(within(row).getByRole('button', { name: 'Expand' }));
    expect(await screen.findByTestId('channel-row-5')).toBeTruthy();

    // Disabling a whole tag asks first; cancelling sends nothing.
    await user.click(within(row).getByRole('button', { name: 'Disable all' }));
    const ask = await screen.findByRole('dialog');
    expect(within(ask).getByText('Disable all 2 channels tagged “pool”?')).toBeTruthy();
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.requests.some((r) => r.path === '/api/channel/tag/disabled')).toBe(false);

    await user.click(within(row).getByRole('button', { name: 'Disable all' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(server.requests.some((r) => r.path === '/api/channel/tag/disabled')).toBe(true),
    );
    expect(server.requests.find((r) => r.path === '/api/channel/tag/disabled')!.body).toEqual({
      tag: 'pool',
    });
  });

  it('column settings: select all, untick, reset to every column', async () => {
    signInAs(10);
    installFakeServer({ ...base, 'GET /api/channel/': () => page([makeChannel(1)]) });
    const user = userEvent.setup();
    renderInConsole(<ChannelsPage />, { path: '/channel' });
    await screen.findByTestId('channel-row-1');
    const headers = () =>
      screen.getAllByRole('columnheader', { hidden: true }).map((cell) => cell.textContent);

    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const dialog = await screen.findByRole('dialog');
    const all = within(dialog).getByRole<HTMLInputElement>('checkbox', { name: 'Select all' });
    expect(all.checked).toBe(true);
    await user.click(all);
    expect(headers()).not.toContain('Name');
    expect(headers()).toContain('Actions');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Name' }));
    expect(headers()).toContain('Name');
    expect(headers()).not.toContain('Type');
    await user.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(headers()).toEqual(expect.arrayContaining(['Name', 'Type', 'Priority', 'Weight', 'Actions']));
    expect(within(dialog).getByRole<HTMLInputElement>('checkbox', { name: 'Select all' }).checked).toBe(true);
  });

  it('says so when a refresh fails', async () => {
    signInAs(10);
    let calls = 0;
    installFakeServer({
      ...base,
      'GET /api/channel/': () => (++calls === 1 ? page([makeChannel(1)]) : refusal('database is down')),
    });
    const user = userEvent.setup();
    renderInConsole(<ChannelsPage />, { path: '/channel' });
    await screen.findByTestId('channel-row-1');
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Refresh failed')).toBeTruthy();
  });

  it('edits priority inline, refuses a bad one, and disables a channel', async () => {
    signInAs(10);
    const server = installFakeServer({
      ...base,
      'GET /api/channel/': () => page([makeChannel(7, { priority: 1 })]),
      'PUT /api/channel/': () => envelope(makeChannel(7)),
    });
    const user = userEvent.setup();
    renderInConsole(<ChannelsPage />, { path: '/channel' });
    const row = await screen.findByTestId('channel-row-7');

    const priority = within(row).getByLabelText('Priority ch7');
    await user.clear(priority);
    await user.type(priority, '1.5');
    fireEvent.blur(priority);
    expect(await screen.findByText('Priority must be an integer')).toBeTruthy();
    expect(server.requests.some((r) => r.method === 'PUT')).toBe(false);

    await user.clear(priority);
    await user.type(priority, '42{Enter}');
    await waitFor(() => expect(server.requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(server.requests.find((r) => r.method === 'PUT')!.body).toEqual({ id: 7, priority: 42 });

    await user.click(within(row).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(server.requests.filter((r) => r.method === 'PUT')).toHaveLength(2));
    expect(server.requests.filter((r) => r.method === 'PUT')[1].body).toEqual({ id: 7, status: 2 });
  });

  it('tests with a picked model and shows the time in seconds', async () => {
    signInAs(10);
    const server = installFakeServer({
      ...base,
      'GET /api/channel/': () => page([makeChannel(8)]),
      'GET /api/channel/test/8': () => jsonResponse({ success: true, message: '', time: 1.234 }),
    });
    const user = userEvent.setup();
    renderInConsole(<ChannelsPage />, { path: '/channel' });
    const row = await screen.findByTestId('channel-row-8');
    await user.click(within(row).getByRole('button', { name: 'Test with a model' }));
    await user.click(await screen.findByTestId('test-model-gpt-4o-mini'));
    expect(await screen.findByText('1.23 s')).toBeTruthy();
    const call = server.requests.find((r) => r.path === '/api/channel/test/8');
    expect(new URL(call!.request.url).searchParams.get('model')).toBe('gpt-4o-mini');
  });

  it('asks for a selection before batch delete and remembers id sort', async () => {
    signInAs(10);
    const server = installFakeServer({
      ...base,
      'GET /api/channel/': () => page([makeChannel(9)]),
      'POST /api/channel/batch': () => envelope(1),
    });
    const user = userEvent.setup();
    renderInConsole(<ChannelsPage />, { path: '/channel', language: 'zh' });
    const row = await screen.findByTestId('channel-row-9');
    await user.click(screen.getByRole('button', { name: '删除所选渠道' }));
    expect(await screen.findByText('请先选择要删除的渠道！')).toBeTruthy();

    await user.click(screen.getByRole('checkbox', { name: '全选本页渠道' }));
    expect(within(row).getByRole<HTMLInputElement>('checkbox').checked).toBe(true);
    await user.click(screen.getByRole('button', { name: '删除所选渠道' }));
    await user.click(await screen.findByRole('button', { name: '确定' }));
    await waitFor(() => expect(server.requests.some((r) => r.path === '/api/channel/batch')).toBe(true));
    expect(server.requests.find((r) => r.path === '/api/channel/batch')!.body).toEqual({ ids: [9] });

    // The confirm dialog may still be closing (the page is aria-hidden until it has).
    await user.click(await screen.findByRole('switch', { name: '使用 ID 排序' }));
    expect(window.localStorage.getItem('id-sort')).toBe('true');
    await waitFor(() =>
      expect(server.requests.some((r) => new URL(r.request.url).searchParams.get('id_sort') === 'true')).toBe(
        true,
      ),
    );
  });
});

describe('row menu', { timeout: 30_000 }, () => {
  it('shows the upstream detection and copies a channel with the chosen suffix', async () => {
    signInAs(10);
    const server = installFakeServer({
      ...base,
      'GET /api/channel/': () => page([makeChannel(20)]),
      'GET /api/channel/test_upstream/20': () =>
        envelope({
          groups: [
            {
              group: 'vip',
              first_seen: 1_700_000_000,
              last_seen: 1_700_000_100,
              client_types: [
                {
                  client_type: 'openai-python',
                  count: 4,
                  first_seen: 1_700_000_000,
                  last_seen: 1_700_000_100,
                },
              ],
            },
          ],
        }),
      'POST /api/channel/copy/20': () => envelope({ id: 21 }),
    });
    const user = userEvent.setup();
    renderInConsole(<ChannelsPage />, { path: '/channel' });
    const row = await screen.findByTestId('channel-row-20');

    await user.click(within(row).getByRole('button', { name: 'More' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Upstream detection' }));
    const upstream = await screen.findByRole('dialog', { name: 'Upstream detection: ch20' });
    expect(await within(upstream).findByText('vip')).toBeTruthy();
    expect(within(upstream).getByText(/OpenAI Python library · Count 4/)).toBeTruthy();
    await user.click(within(upstream).getByRole('button', { name: 'Close' }));

    await user.click(await within(row).findByRole('button', { name: 'More' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Copy' }));
    const copy = await screen.findByRole('dialog', { name: 'Copy channel' });
    expect(within(copy).getByLabelText<HTMLInputElement>('Name suffix').value).toBe('_copy');
    await user.click(within(copy).getByRole('checkbox'));
    await user.click(within(copy).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(server.requests.some((r) => r.path === '/api/channel/copy/20')).toBe(true));
    const params = new URL(server.requests.find((r) => r.path === '/api/channel/copy/20')!.request.url)
      .searchParams;
    expect(params.get('suffix')).toBe('_copy');
    expect(params.get('reset_balance')).toBe('false');
  });
});

describe('channel deep links', { timeout: 60_000 }, () => {
  it('opens the create drawer at /channel/add', async () => {
    signInAs(10);
    installFakeServer({ ...base, 'GET /api/channel/': () => page([]) });
    renderInConsole(<ChannelsPage />, { path: '/channel/add', route: '/channel/add' });
    expect(await screen.findByRole('form', { name: 'Create a channel' })).toBeTruthy();
  });
});

describe('channel drawer', { timeout: 60_000 }, () => {
  it('validates, warns on /v1, fetches models for an unsaved channel and creates it', async () => {
    signInAs(10);
    const server = installFakeServer({
      ...base,
      'GET /api/channel/': () => page([]),
      'POST /api/channel/fetch_models': () => envelope(['m-1', 'm-2']),
      'POST /api/channel/': () => envelope({ id: 11, ids: [11] }),
    });
    const user = userEvent.setup();
    renderInConsole(<ChannelsPage />, { path: '/channel' });
    await user.click(await screen.findByRole('button', { name: 'Add channel' }));
    const form = await screen.findByRole('form', { name: 'Create a channel' });

    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    expect(await within(form).findByText('Please fill in the channel name and key!')).toBeTruthy();

    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'primary' } });
    await user.click(within(form).getByRole('button', { name: 'Fetch model list' }));
    expect(await screen.findByText('Please fill in the key')).toBeTruthy();

    fireEvent.change(within(form).getByLabelText(/^Key/), { target: { value: 'sk-test' } });
    fireEvent.change(within(form).getByLabelText('Proxy address'), {
      target: { value: 'https://up.example.com/v1' },
    });
    expect(within(form).getByText(/The address ends with \/v1/)).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Fetch model list' }));
    const picker = await screen.findByRole('dialog', { name: 'Choose upstream models' });
    await user.click(within(picker).getByRole('button', { name: 'Apply (2 models)' }));
    await within(form).findByText('m-2');
    expect(server.requests.find((r) => r.path === '/api/channel/fetch_models')!.body).toEqual({
      type: 1,
      base_url: 'https://up.example.com/v1',
      key: 'sk-test',
    });

    fireEvent.change(within(form).getByLabelText('Model mapping'), { target: { value: '{"a": 1}' } });
    fireEvent.blur(within(form).getByLabelText('Model mapping'));
    expect(await within(form).findByText('Every value must be a model name string')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Model mapping'), { target: { value: '{"a": "m-1"}' } });

    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm' });
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(server.requests.some((r) => r.method === 'POST' && r.path === '/api/channel/')).toBe(true),
    );
    expect(
      server.requests.find((r) => r.method === 'POST' && r.path === '/api/channel/')!.body,
    ).toMatchObject({
      type: 1,
      name: 'primary',
      key: 'sk-test',
      models: 'm-1,m-2',
      group: 'default',
      base_url: 'https://up.example.com/v1',
      model_mapping: '{"a": "m-1"}',
    });
  });

  it('fills the models related to the channel type, and warns for a type without any', async () => {
    signInAs(10);
    const server = installFakeServer({
      ...base,
      'GET /api/models': () =>
        envelope({ '14': ['claude-a', 'claude-b', 'claude-a'], '1': ['gpt-4o'], '8': [] }),
      'GET /api/channel/': () => page([makeChannel(13, { type: 14, models: 'old-model' })]),
      'GET /api/channel/13': () => envelope(makeChannel(13, { type: 14, models: 'old-model' })),
      'PUT /api/channel/': () => envelope(makeChannel(13)),
    });
    const user = userEvent.setup();
    renderInConsole(<ChannelsPage />, { path: '/channel' });
    const row = await screen.findByTestId('channel-row-13');
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('form', { name: 'Update channel' });
    expect(within(form).getByText('old-model')).toBeTruthy();
    const fill = within(form).getByRole('button', { name: 'Fill related models' });
    await waitFor(() => expect((fill as HTMLButtonElement).disabled).toBe(false));
    await user.click(fill);
    expect(await within(form).findByText('claude-b')).toBeTruthy();
    expect(within(form).queryByText('old-model')).toBeNull();
    // The models of each type are kept locally under the spec's key.
    expect(JSON.parse(window.localStorage.getItem('channel_models') ?? 'null')).toMatchObject({
      '1': ['gpt-4o'],
    });
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(server.requests.some((r) => r.method === 'PUT')).toBe(true));
    const body = server.requests.find((r) => r.method === 'PUT')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ id: 13, models: 'claude-a,claude-b' });
  });

  it('warns when the channel type has no related models and keeps the list', async () => {
    signInAs(10);
    installFakeServer({
      ...base,
      'GET /api/models': () => envelope({ '1': ['gpt-4o'], '8': [] }),
      'GET /api/channel/': () => page([makeChannel(14, { type: 8, models: 'own-model' })]),
      'GET /api/channel/14': () => envelope(makeChannel(14, { type: 8, models: 'own-model' })),
    });
    const user = userEvent.setup();
    renderInConsole(<ChannelsPage />, { path: '/channel' });
    const row = await screen.findByTestId('channel-row-14');
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('form', { name: 'Update channel' });
    const fill = within(form).getByRole('button', { name: 'Fill related models' });
    await waitFor(() => expect((fill as HTMLButtonElement).disabled).toBe(false));
    await user.click(fill);
    expect(await screen.findByText('This channel type has no built-in models')).toBeTruthy();
    expect(within(form).getByText('own-model')).toBeTruthy();
  });

  it('edits without sending the key and shows the per-type field of Spark with its default', async () => {
    signInAs(10);
    const server = installFakeServer({
      ...base,
      'GET /api/channel/': () => page([makeChannel(12, { type: 18, other: '' })]),
      'GET /api/channel/12': () => envelope(makeChannel(12, { type: 18, other: '' })),
      'PUT /api/channel/': () => envelope(makeChannel(12)),
    });
    const user = userEvent.setup();
    renderInConsole(<ChannelsPage />, { path: '/channel' });
    const row = await screen.findByTestId('channel-row-12');
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('form', { name: 'Update channel' });
    expect(within(form).getByLabelText('Model version')).toBeTruthy();
    expect(within(form).getByText('Leave empty to keep the current key')).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(server.requests.some((r) => r.method === 'PUT')).toBe(true));
    const body = server.requests.find((r) => r.method === 'PUT')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ id: 12, type: 18, other: 'v2.1' });
    expect('key' in body).toBe(false);
  });
});
