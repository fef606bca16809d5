import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer, refusal } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { SettingsPage } from './settings-page';

const STORED: Record<string, string> = {
  SelfUseModeEnabled: 'false',
  DisplayInCurrencyEnabled: 'true',
  RetryTimes: '0',
  QuotaPerUnit: '500000',
  USDExchangeRate: '7.3',
  TopUpLink: '',
  PasswordLoginEnabled: 'true',
  RegisterEnabled: 'true',
  ServerAddress: '',
  PayAddress: '',
  Price: '7.3',
  TopupGroupRatio: '{"default":1}',
  PayMethods: '[]',
  EmailDomainRestrictionEnabled: 'false',
  EmailDomainWhitelist: 'gmail.com,qq.com',
  SMTPServer: 'smtp.example.com',
  SMTPPort: '587',
  ModelPrice: '{"mj_imagine":0.1}',
  ModelRatio: '{"gpt-4o":1.25}',
  CompletionRatio: '{"gpt-4o":4}',
  GroupRatio: '{"default":1}',
};

function signInAs(role: number) {
  window.localStorage.setItem(
    'user',
    JSON.stringify({ id: 1, username: 'root', display_name: 'root', role, status: 1, group: 'default' }),
  );
}

/** A server holding options; PUTs are applied unless `refuse` names the key. */
function optionServer(refuse: Record<string, string> = {}, stored: Record<string, string> = STORED) {
  const values = { ...stored };
  const puts: { key: string; value: string; clear?: boolean }[] = [];
  const server = installFakeServer({
    'GET /api/status': () => envelope({ setup: true, version: 'v1.0.0' }),
    'GET /api/option/': () => envelope(Object.entries(values).map(([key, value]) => ({ key, value }))),
    'PUT /api/option/': async (request) => {
      const body = (await request.json()) as { key: string; value: string; clear?: boolean };
      puts.push(body);
      if (refuse[body.key]) return refusal(refuse[body.key]);
      values[body.key] = body.value;
      return envelope(null);
    },
    'GET /api/channel/models_enabled': () => envelope(['gpt-4o', 'mj_imagine', 'brand-new']),
    // The server's answer, priced by prefix as the relay does: gpt-4o-mini-x bills as gpt-4o.
    'GET /api/pricing/unpriced': () => envelope(['brand-new']),
  });
  return { server, puts, values };
}

const region = (name: string) => screen.findByRole('region', { name });

describe('SettingsPage', { timeout: 30_000 }, () => {
  it('opens the tab named in ?tab= and shows the operation tab by default', async () => {
    signInAs(100);
    optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting?tab=system', route: '/setting' });

    expect((await screen.findByRole('tab', { name: 'System' })).getAttribute('aria-selected')).toBe('true');
    expect(await region('SMTP')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Other' }));
    expect(await region('Notice')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Other' }).getAttribute('aria-selected')).toBe('true');
    // No repository configured for the update check: a quiet note instead of a button that can only fail.
    expect((await screen.findByTestId('version-check-off')).textContent).toContain('Update check is off');
    expect(screen.queryByRole('button', { name: 'Check for updates' })).toBeNull();
  });

  it('saves only the changed keys, toggles first, one call per key', async () => {
    signInAs(100);
    const { puts } = optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting', route: '/setting' });

    const general = await region('General settings');
    await user.clear(within(general).getByLabelText('Retry times'));
    await user.type(within(general).getByLabelText('Retry times'), '3');
    await user.click(within(general).getByLabelText('Self-use mode'));
    await user.click(within(general).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Saved successfully')).toBeTruthy();
    expect(puts).toEqual([
      { key: 'SelfUseModeEnabled', value: 'true' },
      { key: 'RetryTimes', value: '3' },
    ]);
  });

  it('sets the periodic channel test interval in the monitoring settings', async () => {
    signInAs(100);
    const { puts } = optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting', route: '/setting' });

    const monitoring = await region('Monitoring settings');
    const field = within(monitoring).getByLabelText('Test every channel every (minutes)');
    await user.clear(field);
    await user.type(field, '15');
    await user.click(within(monitoring).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved successfully')).toBeTruthy();
    expect(puts).toEqual([{ key: 'ChannelTestFrequency', value: '15' }]);
  });

  it('only warns when nothing changed', async () => {
    signInAs(100);
    const { puts } = optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting', route: '/setting', language: 'zh' });

    const general = await region('通用设置');
    await user.click(within(general).getByRole('button', { name: '保存' }));
    expect(await screen.findByText('你似乎并没有修改什么')).toBeTruthy();
    expect(puts).toEqual([]);
  });

  it('reports a partial failure and keeps the refused field with the server reason', async () => {
    signInAs(100);
    const { puts, values } = optionServer({ USDExchangeRate: '汇率超出范围' });
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting', route: '/setting', language: 'zh' });

    const general = await region('通用设置');
    await user.clear(within(general).getByLabelText('失败重试次数'));
    await user.type(within(general).getByLabelText('失败重试次数'), '2');
    await user.clear(within(general).getByLabelText('美元汇率（仅用于定价页面换算）'));
    await user.type(within(general).getByLabelText('美元汇率（仅用于定价页面换算）'), '99');
    await user.click(within(general).getByRole('button', { name: '保存' }));

    expect(await screen.findByText('部分保存失败，请重试')).toBeTruthy();
    expect(await within(general).findByText('汇率超出范围')).toBeTruthy();
    expect(puts.map((put) => put.key)).toEqual(['RetryTimes', 'USDExchangeRate']);
    expect(values.RetryTimes).toBe('2');
    expect(within(general).getByLabelText<HTMLInputElement>('美元汇率（仅用于定价页面换算）').value).toBe(
      '99',
    );
  });

  it('refuses non-numbers and out-of-range values before sending', async () => {
    signInAs(100);
    const { puts } = optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting', route: '/setting' });

    const general = await region('General settings');
    await user.clear(within(general).getByLabelText('Retry times'));
    await user.type(within(general).getByLabelText('Retry times'), 'abc');
    await user.click(within(general).getByRole('button', { name: 'Save' }));
    expect((await screen.findAllByText('Please enter a number')).length).toBeGreaterThan(0);

    await user.clear(within(general).getByLabelText('Retry times'));
    await user.type(within(general).getByLabelText('Retry times'), '11');
    await user.click(within(general).getByRole('button', { name: 'Save' }));
    expect((await screen.findAllByText('Must be at most 10')).length).toBeGreaterThan(0);
    expect(puts).toEqual([]);
  });

  it('validates a JSON editor on blur', async () => {
    signInAs(100);
    optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting', route: '/setting', language: 'zh' });

    const groups = await region('分组设置');
    const ratio = within(groups).getByLabelText('分组倍率');
    await user.clear(ratio);
    await user.type(ratio, '{{"default": ');
    await user.tab();
    expect(await within(groups).findByText('不是合法的 JSON 字符串')).toBeTruthy();
  });

  it('asks before turning password login off; cancelling leaves it on', async () => {
    signInAs(100);
    const { puts } = optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting?tab=system', route: '/setting' });

    const login = await region('Login and registration');
    const toggle = within(login).getByLabelText<HTMLInputElement>('Allow password login');
    expect(toggle.checked).toBe(true);
    await user.click(toggle);
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(login).getByLabelText<HTMLInputElement>('Allow password login').checked).toBe(true);

    await user.click(within(login).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('You seem to have changed nothing')).toBeTruthy();
    expect(puts).toEqual([]);
  });

  it('payment needs the server address first and speaks the spec JSON messages', async () => {
    signInAs(100);
    const { puts } = optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting?tab=system', route: '/setting', language: 'zh' });

    const payment = await region('支付设置');
    await user.clear(within(payment).getByLabelText('充值价格（元/美元）'));
    await user.type(within(payment).getByLabelText('充值价格（元/美元）'), '7.5');
    await user.click(within(payment).getByRole('button', { name: '保存' }));
    expect(await screen.findByText('请先填写服务器地址')).toBeTruthy();

    const server = await region('通用设置');
    await user.type(within(server).getByLabelText('服务器地址'), 'https://gw.example.com/');
    await user.click(within(server).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(puts).toEqual([{ key: 'ServerAddress', value: 'https://gw.example.com' }]));

    const ratio = within(payment).getByLabelText('充值分组倍率');
    await user.clear(ratio);
    await user.type(ratio, 'not json');
    await user.click(within(payment).getByRole('button', { name: '保存' }));
    expect((await screen.findAllByText('充值分组倍率不是合法的 JSON 字符串')).length).toBeGreaterThan(0);

    await user.clear(ratio);
    await user.type(ratio, '{{"default": 1.5}');
    await user.click(within(payment).getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(puts.slice(1)).toEqual([
        { key: 'Price', value: '7.50' },
        { key: 'TopupGroupRatio', value: '{"default": 1.5}' },
      ]),
    );
  });

  it('sends a secret only when typed', async () => {
    signInAs(100);
    const { puts } = optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting?tab=system', route: '/setting' });

    const smtp = await region('SMTP');
    await user.clear(within(smtp).getByLabelText('SMTP port'));
    await user.type(within(smtp).getByLabelText('SMTP port'), '465');
    await user.click(within(smtp).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toEqual([{ key: 'SMTPPort', value: '465' }]));

    await user.type(within(smtp).getByLabelText('SMTP password or token'), 'app-password');
    await user.click(within(smtp).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts.at(-1)).toEqual({ key: 'SMTPToken', value: 'app-password' }));
  });

  it('edits the email domain whitelist with validation', async () => {
    signInAs(100);
    const { puts } = optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting?tab=system', route: '/setting', language: 'zh' });

    const panel = await region('配置邮箱域名白名单');
    const input = within(panel).getByLabelText('添加域名');
    await user.type(input, 'not a domain');
    await user.click(within(panel).getByRole('button', { name: '添加' }));
    expect(
      await within(panel).findByText('邮箱域名格式不正确，请输入有效的域名，如 example.com'),
    ).toBeTruthy();
    await user.clear(input);
    await user.type(input, 'QQ.com');
    await user.click(within(panel).getByRole('button', { name: '添加' }));
    expect(await within(panel).findByText('该域名已存在于白名单中')).toBeTruthy();
    await user.clear(input);
    await user.type(input, 'example.org{Enter}');
    expect(await within(panel).findByText('example.org')).toBeTruthy();
    await user.click(within(panel).getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(puts).toEqual([{ key: 'EmailDomainWhitelist', value: 'gmail.com,qq.com,example.org' }]),
    );
  });

  it('visual price table: refuses a zero price, converts prices to ratios, saves only changed keys', async () => {
    signInAs(100);
    const { puts } = optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting', route: '/setting', language: 'zh' });

    await user.click(await screen.findByRole('tab', { name: '可视化倍率设置' }));
    expect(await screen.findByTestId('price-row-gpt-4o')).toBeTruthy();
    expect(within(screen.getByTestId('price-row-gpt-4o')).getByText('$2.5')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: '添加模型' }));
    let dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('模型名称'), 'gpt-4o');
    await user.type(within(dialog).getByLabelText('模型倍率'), '1');
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await within(dialog).findByText('模型名称已存在')).toBeTruthy();

    await user.clear(within(dialog).getByLabelText('模型名称'));
    await user.type(within(dialog).getByLabelText('模型名称'), 'my-model');
    await user.click(within(dialog).getByLabelText('按次计费'));
    expect(within(dialog).getByLabelText<HTMLInputElement>('模型倍率').disabled).toBe(true);
    await user.type(within(dialog).getByLabelText('固定价格（美元/次）'), '0');
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await within(dialog).findByText('模型价格不能为0')).toBeTruthy();

    await user.click(within(dialog).getByLabelText('按量计费'));
    await user.click(within(dialog).getByRole('button', { name: '按价格' }));
    await user.type(within(dialog).getByLabelText('输入价格（美元/1M Tokens）'), '3');
    await user.type(within(dialog).getByLabelText('输出价格（美元/1M Tokens）'), '15');
    expect(within(dialog).getByText('换算：模型倍率 1.5，补全倍率 5')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    dialog = screen.getByTestId('price-row-my-model');
    expect(within(dialog).getByText('1.5')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: '应用更改' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts.map((put) => put.key)).toEqual(['ModelRatio', 'CompletionRatio']);
    expect(JSON.parse(puts[0].value)).toEqual({ 'gpt-4o': 1.25, 'my-model': 1.5 });
    expect(JSON.parse(puts[1].value)).toEqual({ 'gpt-4o': 4, 'my-model': 5 });
  });

  it('batch set needs a selection, then applies to the selected models', async () => {
    signInAs(100);
    const { puts } = optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting', route: '/setting' });

    await user.click(await screen.findByRole('tab', { name: 'Visual ratio settings' }));
    const batch = await screen.findByRole('group', { name: 'Batch set' });
    await user.type(within(batch).getByLabelText('Value'), '2');
    await user.click(within(batch).getByRole('button', { name: 'Apply to selected models' }));
    expect(await screen.findByText('Select models first')).toBeTruthy();

    await user.click(screen.getByLabelText('Select mj_imagine'));
    await user.click(within(batch).getByRole('button', { name: 'Apply to selected models' }));
    await user.click(screen.getByRole('button', { name: 'Apply changes' }));
    await waitFor(() => expect(puts.map((put) => put.key)).toEqual(['ModelPrice', 'ModelRatio']));
    expect(JSON.parse(puts[0].value)).toEqual({});
    expect(JSON.parse(puts[1].value)).toEqual({ 'gpt-4o': 1.25, mj_imagine: 2 });
  });

  it('lists enabled models that have no price', async () => {
    signInAs(100);
    optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting', route: '/setting' });

    await user.click(await screen.findByRole('tab', { name: 'Models with no ratio' }));
    expect(await screen.findByText('brand-new')).toBeTruthy();
    expect(screen.queryByText('gpt-4o')).toBeNull();
    expect(screen.queryByText('mj_imagine')).toBeNull();
  });

  it('refuses ordinary users', async () => {
    signInAs(1);
    installFakeServer({});
    renderInConsole(<SettingsPage />, { path: '/setting', route: '/setting' });
    expect(await screen.findByText('Only administrators can change settings')).toBeTruthy();
  });
});
