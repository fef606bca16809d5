import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { MockUpstream } from '../mocks/mock-upstream';
import { makeChannel, makeToken, setQuota } from '../support/relay-fixtures';
import { putOption, setupRoot, startApp, TestApp } from '../support/test-app';

/**
 * The client setups of docs/agents.md, taken from the page itself: the environment variables and the
 * Codex provider block, pointed at a running gateway, each making a real call.
 */
const DOC = readFileSync(join(__dirname, '../../docs/agents.md'), 'utf8');
const GATEWAY = 'https://gateway.example.com';
const REPLY = 'Hello from the mock upstream.';

/** `export NAME=value` lines of the page (the value with the placeholder gateway). */
function exported(name: string): string {
  const m = new RegExp(`^export ${name}=(\\S+)$`, 'm').exec(DOC);
  if (!m) throw new Error(`docs/agents.md does not export ${name}`);
  return m[1];
}

describe('docs/agents.md setups', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let key: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    const root = await setupRoot(t);
    await putOption(
      root,
      'ModelRatio',
      JSON.stringify({ 'claude-opus-4-6': 1, 'gemini-2.5-pro': 1, 'gpt-5-codex': 1 }),
    );
    await makeChannel(t, { type: 14, base_url: mock.url, models: 'claude-opus-4-6' });
    await makeChannel(t, { type: 24, base_url: mock.url, models: 'gemini-2.5-pro' });
    await makeChannel(t, { type: 1, base_url: mock.url, models: 'gpt-5-codex' });
    await setQuota(t, root.userId!, 10_000_000);
    key = (await makeToken(t, root.userId!)).key;
  });

  afterEach(() => {
    process.env = { ...saved };
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  /** The page's value with its placeholder gateway and key replaced by the test's. */
  const live = (value: string) => value.replace(GATEWAY, t.url).replace('sk-…', key);

  it('Claude Code: ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN', async () => {
    for (const name of ['ANTHROPIC_BASE_URL', 'ANTHROPIC_AUTH_TOKEN'])
      process.env[name] = live(exported(name));
    delete process.env.ANTHROPIC_API_KEY;
    const client = new Anthropic({ maxRetries: 0 });
    const msg = await client.messages.create({
      model: 'claude-opus-4-6',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(msg.content[0]).toMatchObject({ type: 'text', text: REPLY });
    expect(mock.last!.headers['x-api-key']).toBe('sk-upstream-key');
    const count = await client.messages.countTokens({
      model: 'gemini-2.5-pro',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(count.input_tokens).toBeGreaterThan(0);
  });

  it('Codex: the model_providers block of config.toml (Responses API to a Claude model)', async () => {
    const block = /\[model_providers\.gatehouse\]\n([\s\S]*?)```/.exec(DOC)?.[1] ?? '';
    const field = (k: string) => new RegExp(`^${k} = "([^"]+)"$`, 'm').exec(block)?.[1];
    expect(field('wire_api')).toBe('responses');
    expect(exported(field('env_key')!)).toBe('sk-…');
    const res = await fetch(`${live(field('base_url')!)}/responses`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'openai-beta': 'responses=experimental',
        originator: 'codex_cli_rs',
        session_id: 'doc-session',
      },
      body: JSON.stringify({
        model: 'claude-opus-4-6',
        instructions: 'You are Codex.',
        input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
        tools: [],
        tool_choice: 'auto',
        parallel_tool_calls: false,
        store: false,
        stream: true,
        include: [],
        prompt_cache_key: 'doc-session',
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('response.completed');
  });

  it('Gemini CLI / @google/genai: GOOGLE_GEMINI_BASE_URL and GEMINI_API_KEY', async () => {
    for (const name of ['GOOGLE_GEMINI_BASE_URL', 'GEMINI_API_KEY']) process.env[name] = live(exported(name));
    delete process.env.GOOGLE_API_KEY;
    const ai = new GoogleGenAI({});
    const res = await ai.models.generateContent({ model: 'claude-opus-4-6', contents: 'hi' });
    expect(res.text).toBe(REPLY);
    expect(
      (await ai.models.countTokens({ model: 'gemini-2.5-pro', contents: 'hi' })).totalTokens,
    ).toBeGreaterThan(0);
  });

  it('AI SDK / LangChain: the OpenAI base URL with /v1 (Responses and chat), the Anthropic one without', async () => {
    expect(DOC).toContain(`baseURL: '${GATEWAY}/v1'`);
    expect(DOC).toContain(`anthropicApiUrl: '${GATEWAY}'`);
    process.env.OPENAI_BASE_URL = `${t.url}/v1`;
    process.env.OPENAI_API_KEY = key;
    const openai = new OpenAI({ maxRetries: 0 });
    expect((await openai.responses.create({ model: 'gemini-2.5-pro', input: 'hi' })).output_text).toBe(REPLY);
    expect(
      (
        await openai.chat.completions.create({
          model: 'claude-opus-4-6',
          messages: [{ role: 'user', content: 'hi' }],
        })
      ).choices[0].message.content,
    ).toBe(REPLY);
  });
});
