import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LocaleResource } from '../../provider/console-i18n';
import { envelope, installFakeServer } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { agentSettingsLocales } from './agent-settings-locales';
import { affinityRulesProblem, headerListProblem, nameListProblem } from './agent-settings-rules';
import { SettingsPage } from './settings-page';

const STORED: Record<string, string> = {
  'relay.effort_suffixes_enabled': 'true',
  'general_setting.retry_timeout_same_channel': 'false',
  'relay.forward_client_headers': '["anthropic-beta","openai-beta"]',
  'relay.reasoning_models': '["o1","o3","o4","gpt-5","gpt-oss","codex"]',
  CacheCreation1hRatio: '{}',
  'channel_affinity.enabled': 'true',
  'channel_affinity.ttl_seconds': '3600',
  'channel_affinity.headers': '["session_id","x-session-id"]',
  'channel_affinity.rules': '[]',
};

function optionServer() {
  const values = { ...STORED };
  const puts: { key: string; value: string }[] = [];
  installFakeServer({
    'GET /api/status': () => envelope({ setup: true, version: 'v1.0.0' }),
    'GET /api/option/': () => envelope(Object.entries(values).map(([key, value]) => ({ key, value }))),
    'PUT /api/option/': async (request) => {
      const body = (await request.json()) as { key: string; value: string };
      puts.push(body);
      values[body.key] = body.value;
      return envelope(null);
    },
  });
  return { puts, values };
}

function signInAsRoot() {
  window.localStorage.setItem(
    'user',
    JSON.stringify({ id: 1, username: 'root', display_name: 'root', role: 100, status: 1, group: 'default' }),
  );
}

function keysOf(resource: LocaleResource, prefix = ''): string[] {
  return Object.entries(resource).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

describe('coding-agent settings', { timeout: 30_000 }, () => {
  it('has every string in both Chinese and English', () => {
    const zh = keysOf(agentSettingsLocales.zh).sort();
    const en = keysOf(agentSettingsLocales.en).sort();
    expect(en).toEqual(zh);
    for (const key of Object.keys(STORED)) expect(zh).toContain(`fields.${key.replace(/\./g, '_')}`);
  });

  it('checks the lists and rules before saving', () => {
    expect(headerListProblem('["anthropic-beta"]')).toBeNull();
    expect(headerListProblem('["Authorization"]')).toEqual({
      key: 'headerNever',
      values: { name: 'Authorization' },
    });
    expect(headerListProblem('["session_id"]', false)).toBeNull();
    expect(headerListProblem('["bad header"]')).toEqual({ key: 'headerName', values: { index: 1 } });
    expect(nameListProblem('["o3", ""]')).toEqual({ key: 'nameList', values: { index: 2 } });
    expect(
      affinityRulesProblem('[{"model": "^claude-", "header": "x-s"}, {"json": "metadata.user_id"}]'),
    ).toBeNull();
    expect(affinityRulesProblem('[{"model": "^claude-"}]')).toEqual({
      key: 'ruleNoKey',
      values: { index: 1 },
    });
    expect(affinityRulesProblem('[{"header": "x", "ttl": "1"}]')).toEqual({
      key: 'ruleUnknownKey',
      values: { index: 1, name: 'ttl' },
    });
    expect(affinityRulesProblem('[{"header": "x", "model": "("}]')).toEqual({
      key: 'ruleBadModel',
      values: { index: 1 },
    });
    expect(affinityRulesProblem('[1]')).toEqual({ key: 'ruleNotObject', values: { index: 1 } });
    // Not JSON: left to the panel's own JSON check.
    expect(affinityRulesProblem('[{')).toBeNull();
  });

  it('edits the affinity lifetime and the effort-suffix switch and saves them', async () => {
    signInAsRoot();
    const { puts } = optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting?tab=models', route: '/setting' });

    const affinity = await screen.findByRole('region', { name: 'Channel affinity' });
    const ttl = within(affinity).getByLabelText('Affinity lifetime (seconds)');
    expect((ttl as HTMLInputElement).value).toBe('3600');
    await user.clear(ttl);
    await user.type(ttl, '600');
    await user.click(within(affinity).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved successfully')).toBeTruthy();
    expect(puts).toEqual([{ key: 'channel_affinity.ttl_seconds', value: '600' }]);

    const agents = screen.getByRole('region', { name: 'Coding agents' });
    await user.click(within(agents).getByLabelText('Reasoning effort suffixes (-low, -high…)'));
    await user.click(within(agents).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(puts).toContainEqual({ key: 'relay.effort_suffixes_enabled', value: 'false' }),
    );
  });

  it('shows the validation message and sends nothing for a rule without a session key', async () => {
    signInAsRoot();
    const { puts } = optionServer();
    const user = userEvent.setup();
    renderInConsole(<SettingsPage />, { path: '/setting?tab=models', route: '/setting', language: 'zh' });

    const affinity = await screen.findByRole('region', { name: '渠道亲和' });
    const rules = within(affinity).getByLabelText('亲和规则');
    await user.clear(rules);
    await user.click(rules);
    await user.paste('[{"model": "^claude-"}]');
    await user.click(within(affinity).getByRole('button', { name: '保存' }));
    expect(
      (await within(affinity).findAllByText('第 1 条规则需要用 header 或 json 指明会话键')).length,
    ).toBeGreaterThan(0);
    expect(puts).toEqual([]);

    const agents = screen.getByRole('region', { name: '编码智能体' });
    const headers = within(agents).getByLabelText('转发给同格式上游的客户端请求头');
    await user.clear(headers);
    await user.click(headers);
    await user.paste('["anthropic-beta", "x-api-key"]');
    await user.click(within(agents).getByRole('button', { name: '保存' }));
    expect(
      (await within(agents).findAllByText('x-api-key 是凭据或传输请求头，永不转发，请去掉')).length,
    ).toBeGreaterThan(0);
    expect(puts).toEqual([]);
  });
});
