import { CARRY_TABLES, FORMAT_NAMES } from '../../server/src/modules/relay/formats/carry';
import type { WireFormat } from '../../server/src/modules/relay/types';
import { MockUpstream } from '../mocks/mock-upstream';
import { logsOf, makeChannel, makeToken, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

/**
 * Every request field a conversion between wire formats cannot carry is refused with a 400 in the
 * caller's format naming the field and the channel's format (nothing sent upstream); a field with a
 * counterpart reaches the channel mapped; a field that cannot change the answer is left out and the
 * call served. For every inbound format × channel format, with the values callers really send.
 */
type Target = 'openai' | 'anthropic' | 'gemini';

/** The channel of each format (Responses on an OpenAI-format channel without the Responses API: Dify). */
const MODEL: Record<Target, string> = { openai: 'fld-openai', anthropic: 'fld-claude', gemini: 'fld-gemini' };
const CHAT_ONLY_MODEL = 'fld-chat-only';

interface Refusal {
  /** The field of the carry table the case stands for. */
  field: string;
  /** What the caller adds to a minimal request. */
  extra: Record<string, unknown>;
  /** The refusal names it so. */
  label: string;
  to: Target[];
}

const FN_TOOL = { type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } };
const RESP_FN_TOOL = { type: 'function', name: 'f', parameters: { type: 'object', properties: {} } };
const GEMINI_USER = { role: 'user', parts: [{ text: 'hi' }] };
/** A 1×1 PNG. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const imageUrl = (url: string) => ({ type: 'image_url', image_url: { url } });
const fileData = (mimeType: string, fileUri: string) => ({
  role: 'user',
  parts: [{ text: 'Read this' }, { fileData: { mimeType, fileUri } }],
});

const REFUSALS: Record<WireFormat, Refusal[]> = {
  openai: [
    {
      field: 'audio',
      extra: { audio: { voice: 'alloy', format: 'wav' } },
      label: 'audio',
      to: ['anthropic', 'gemini'],
    },
    {
      field: 'modalities',
      extra: { modalities: ['text', 'audio'] },
      label: 'modalities',
      to: ['anthropic', 'gemini'],
    },
    {
      field: 'functions',
      extra: { functions: [{ name: 'f', parameters: { type: 'object', properties: {} } }] },
      label: 'functions',
      to: ['anthropic', 'gemini'],
    },
    {
      field: 'function_call',
      extra: { function_call: 'auto' },
      label: 'function_call',
      to: ['anthropic', 'gemini'],
    },
    { field: 'logprobs', extra: { logprobs: true }, label: 'logprobs', to: ['anthropic'] },
    { field: 'top_logprobs', extra: { top_logprobs: 2 }, label: 'top_logprobs', to: ['anthropic'] },
    { field: 'n', extra: { n: 2 }, label: 'n (several choices)', to: ['anthropic'] },
    { field: 'store', extra: { store: true }, label: 'store', to: ['anthropic', 'gemini'] },
    {
      field: 'web_search_options',
      extra: { web_search_options: {} },
      label: 'web_search_options',
      to: ['anthropic', 'gemini'],
    },
    {
      field: 'messages',
      extra: {
        messages: [
          {
            role: 'user',
            content: [{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }],
          },
        ],
      },
      label: 'messages (input_audio content)',
      to: ['anthropic'],
    },
    {
      field: 'messages',
      extra: { messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc' } }] }] },
      label: 'messages (file by file_id)',
      to: ['anthropic', 'gemini'],
    },
    ...['file-abc', 'ftp://example.com/a.png', 'data:image/png,not-base64'].map((url) => ({
      field: 'messages',
      extra: { messages: [{ role: 'user', content: [imageUrl(url), { type: 'text', text: 'hi' }] }] },
      label: 'messages (image_url not an http(s) or base64 data URL)',
      to: ['anthropic', 'gemini'] as Target[],
    })),
    {
      field: 'messages',
      // Gemini reads Cloud Storage URIs (fileData); Anthropic cannot.
      extra: { messages: [{ role: 'user', content: [imageUrl('gs://bucket/a.png')] }] },
      label: 'messages (image_url not an http(s) or base64 data URL)',
      to: ['anthropic'],
    },
    {
      field: 'messages',
      extra: {
        messages: [
          { role: 'user', content: 'Look' },
          { role: 'tool', tool_call_id: 'c1', content: [imageUrl('file-abc')] },
        ],
      },
      label: 'messages (image_url not an http(s) or base64 data URL)',
      to: ['anthropic', 'gemini'],
    },
    {
      field: 'messages',
      extra: {
        messages: [
          {
            role: 'user',
            content: [{ type: 'file', file: { file_data: 'JVBERi0xLjQ=', filename: 'a.pdf' } }],
          },
        ],
      },
      label: 'messages (file_data not a base64 data URL)',
      to: ['anthropic', 'gemini'],
    },
    {
      field: 'messages',
      extra: {
        messages: [
          { role: 'user', content: [{ type: 'video_url', video_url: { url: 'https://example.com/v.mp4' } }] },
        ],
      },
      label: 'messages (content part "video_url")',
      to: ['anthropic', 'gemini'],
    },
    {
      field: 'response_format',
      extra: { response_format: { type: 'json_object' } },
      label: 'response_format (json_object)',
      to: ['anthropic'],
    },
    {
      field: 'tool_choice',
      extra: {
        tools: [FN_TOOL],
        tool_choice: {
          type: 'allowed_tools',
          allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'f' } }] },
        },
      },
      label: 'tool_choice (type "allowed_tools")',
      to: ['anthropic', 'gemini'],
    },
    {
      field: 'tools',
      extra: { tools: [{ type: 'custom', custom: { name: 'grammar' } }] },
      label: 'tools (type "custom")',
      to: ['anthropic', 'gemini'],
    },
  ],
  responses: [
    {
      field: 'background',
      extra: { background: true },
      label: 'background',
      to: ['openai', 'anthropic', 'gemini'],
    },
    {
      field: 'conversation',
      extra: { conversation: 'conv_123' },
      label: 'conversation',
      to: ['openai', 'anthropic', 'gemini'],
    },
    {
      field: 'previous_response_id',
      extra: { previous_response_id: 'resp_123' },
      label: 'previous_response_id',
      to: ['openai', 'anthropic', 'gemini'],
    },
    {
      field: 'prompt',
      extra: { prompt: { id: 'pmpt_123' } },
      label: 'prompt',
      to: ['openai', 'anthropic', 'gemini'],
    },
    { field: 'store', extra: { store: true }, label: 'store', to: ['openai', 'anthropic', 'gemini'] },
    {
      field: 'input',
      extra: { input: [{ type: 'item_reference', id: 'msg_123' }] },
      label: 'input (item type "item_reference")',
      to: ['openai', 'anthropic', 'gemini'],
    },
    {
      field: 'input',
      extra: { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-abc' }] }] },
      label: 'input (input_image by file_id)',
      to: ['openai', 'anthropic', 'gemini'],
    },
    {
      field: 'input',
      extra: {
        input: [{ role: 'user', content: [{ type: 'input_file', file_url: 'https://example.com/a.pdf' }] }],
      },
      label: 'input (input_file without file_data)',
      to: ['openai', 'anthropic', 'gemini'],
    },
    {
      field: 'input',
      extra: { input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-abc' }] }] },
      label: 'input (input_file without file_data)',
      to: ['anthropic', 'gemini'],
    },
    {
      field: 'input',
      extra: {
        input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'ftp://example.com/a.png' }] }],
      },
      label: 'input (input_image not an http(s) or base64 data URL)',
      to: ['anthropic', 'gemini'],
    },
    {
      field: 'input',
      extra: {
        input: [
          { role: 'user', content: [{ type: 'input_file', file_data: 'JVBERi0xLjQ=', filename: 'a.pdf' }] },
        ],
      },
      label: 'input (input_file data not a base64 data URL)',
      to: ['anthropic', 'gemini'],
    },
    {
      field: 'input',
      extra: {
        input: [
          { role: 'developer', content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] },
          { role: 'user', content: 'hi' },
        ],
      },
      label: 'input (input_image in a developer message)',
      to: ['openai', 'anthropic', 'gemini'],
    },
    {
      field: 'input',
      extra: {
        tools: [RESP_FN_TOOL],
        input: [
          { role: 'user', content: 'Look' },
          { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
          {
            type: 'function_call_output',
            call_id: 'c1',
            output: [{ type: 'input_image', image_url: 'https://example.com/a.png' }],
          },
        ],
      },
      label: 'input (function_call_output with input_image)',
      to: ['openai', 'anthropic', 'gemini'],
    },
    {
      field: 'input',
      extra: {
        input: [{ role: 'user', content: [{ type: 'input_video', video_url: 'https://example.com/v.mp4' }] }],
      },
      label: 'input (content part "input_video")',
      to: ['openai', 'anthropic', 'gemini'],
    },
    {
      field: 'tools',
      extra: { tools: [{ type: 'web_search' }] },
      label: 'tools (type "web_search")',
      to: ['openai', 'anthropic', 'gemini'],
    },
    {
      field: 'tools',
      extra: {
        tools: [
          {
            type: 'namespace',
            name: 'crm',
            description: 'CRM',
            tools: [{ type: 'custom', name: 'grammar' }],
          },
        ],
      },
      label: 'tools (namespace member of type "custom")',
      to: ['openai', 'anthropic', 'gemini'],
    },
    {
      field: 'tool_choice',
      extra: {
        tools: [RESP_FN_TOOL],
        tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'f' }] },
      },
      label: 'tool_choice (type "allowed_tools")',
      to: ['openai', 'anthropic', 'gemini'],
    },
    { field: 'top_logprobs', extra: { top_logprobs: 2 }, label: 'top_logprobs', to: ['anthropic'] },
    {
      field: 'text',
      extra: { text: { format: { type: 'json_object' } } },
      label: 'text.format (json_object)',
      to: ['anthropic'],
    },
  ],
  anthropic: [
    {
      field: 'container',
      extra: { container: 'container_123' },
      label: 'container',
      to: ['openai', 'gemini'],
    },
    {
      field: 'inference_geo',
      extra: { inference_geo: 'us' },
      label: 'inference_geo',
      to: ['openai', 'gemini'],
    },
    {
      field: 'mcp_servers',
      extra: { mcp_servers: [{ type: 'url', url: 'https://mcp.example.com/sse', name: 'docs' }] },
      label: 'mcp_servers',
      to: ['openai', 'gemini'],
    },
    {
      field: 'compaction',
      extra: { compaction: { type: 'enabled' } },
      label: 'compaction',
      to: ['openai', 'gemini'],
    },
    {
      field: 'fallback_credit_token',
      extra: { fallback_credit_token: 'fct_123' },
      label: 'fallback_credit_token',
      to: ['openai', 'gemini'],
    },
    {
      field: 'fallbacks',
      extra: { fallbacks: ['claude-haiku-4-5'] },
      label: 'fallbacks',
      to: ['openai', 'gemini'],
    },
    { field: 'thread', extra: { thread: { type: 'create' } }, label: 'thread', to: ['openai', 'gemini'] },
    {
      field: 'tools',
      extra: { tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }] },
      label: 'tools (type "web_search_20250305")',
      to: ['openai', 'gemini'],
    },
    {
      field: 'messages',
      extra: {
        messages: [
          { role: 'user', content: 'Search for it' },
          {
            role: 'assistant',
            content: [
              { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
            ],
          },
          { role: 'user', content: 'and?' },
        ],
      },
      label: 'messages (content block "server_tool_use")',
      to: ['openai', 'gemini'],
    },
    {
      field: 'messages',
      extra: {
        messages: [
          { role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'file_123' } }] },
        ],
      },
      label: 'messages (image source "file")',
      to: ['openai', 'gemini'],
    },
    {
      field: 'messages',
      extra: {
        messages: [
          {
            role: 'user',
            content: [{ type: 'image', source: { type: 'url', url: 'ftp://example.com/a.png' } }],
          },
        ],
      },
      label: 'messages (image url not http(s))',
      to: ['openai', 'gemini'],
    },
    {
      field: 'messages',
      extra: {
        messages: [
          {
            role: 'user',
            content: [{ type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } }],
          },
        ],
      },
      label: 'messages (document source "url")',
      to: ['openai', 'gemini'],
    },
    ...(
      [
        [
          {
            type: 'search_result',
            source: 'https://example.com',
            title: 'T',
            content: [{ type: 'text', text: 'x' }],
          },
          'messages (tool_result block "search_result")',
        ],
        [
          { type: 'image', source: { type: 'file', file_id: 'file_123' } },
          'messages (tool_result image source "file")',
        ],
      ] as [object, string][]
    ).map(([inner, label]) => ({
      field: 'messages',
      extra: {
        tools: [{ name: 'f', input_schema: { type: 'object', properties: {} } }],
        messages: [
          { role: 'user', content: 'Look' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [inner] }] },
        ],
      },
      label,
      to: ['openai', 'gemini'] as Target[],
    })),
  ],
  gemini: [
    {
      field: 'cachedContent',
      extra: { cachedContent: 'cachedContents/abc' },
      label: 'cachedContent',
      to: ['openai', 'anthropic'],
    },
    {
      field: 'tools',
      extra: { tools: [{ googleSearch: {} }] },
      label: 'tools (googleSearch)',
      to: ['openai', 'anthropic'],
    },
    {
      field: 'contents',
      extra: {
        contents: [
          GEMINI_USER,
          { role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }] },
          { role: 'user', parts: [{ text: 'and?' }] },
        ],
      },
      label: 'contents (executableCode part)',
      to: ['openai', 'anthropic'],
    },
    {
      field: 'contents',
      extra: {
        contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } }] }],
      },
      label: 'contents (inline audio)',
      to: ['anthropic'],
    },
    {
      field: 'contents',
      extra: { contents: [fileData('application/pdf', 'https://example.com/a.pdf')] },
      label: 'contents (fileData "application/pdf")',
      to: ['openai'],
    },
    {
      field: 'contents',
      extra: { contents: [fileData('video/mp4', 'https://example.com/v.mp4')] },
      label: 'contents (fileData "video/mp4")',
      to: ['openai', 'anthropic'],
    },
    {
      field: 'contents',
      extra: { contents: [fileData('image/png', 'gs://bucket/a.png')] },
      label: 'contents (fileData not http(s))',
      to: ['openai', 'anthropic'],
    },
    {
      field: 'contents',
      extra: {
        contents: [
          fileData('application/pdf', 'https://generativelanguage.googleapis.com/v1beta/files/abc123'),
        ],
      },
      label: 'contents (fileData from the Gemini Files API)',
      to: ['openai', 'anthropic'],
    },
    {
      field: 'contents',
      extra: {
        contents: [
          GEMINI_USER,
          { role: 'model', parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] },
          { role: 'user', parts: [{ text: 'again' }] },
        ],
      },
      label: 'contents (inlineData in a model turn)',
      to: ['openai', 'anthropic'],
    },
    {
      field: 'contents',
      extra: {
        contents: [
          GEMINI_USER,
          { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] },
          {
            role: 'user',
            parts: [
              {
                functionResponse: {
                  name: 'f',
                  response: { ok: true },
                  parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }],
                },
              },
            ],
          },
        ],
      },
      label: 'contents (functionResponse parts)',
      to: ['openai', 'anthropic'],
    },
    {
      field: 'systemInstruction',
      extra: {
        systemInstruction: {
          parts: [{ text: 'Be brief.' }, { inlineData: { mimeType: 'image/png', data: PNG } }],
        },
      },
      label: 'systemInstruction (inlineData part)',
      to: ['openai', 'anthropic'],
    },
    ...(
      [
        ['candidateCount', 2, ['anthropic']],
        ['responseLogprobs', true, ['anthropic']],
        ['logprobs', 2, ['anthropic']],
        ['responseModalities', ['TEXT', 'IMAGE'], ['openai', 'anthropic']],
        [
          'speechConfig',
          { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } },
          ['openai', 'anthropic'],
        ],
        ['imageConfig', { aspectRatio: '16:9' }, ['openai', 'anthropic']],
        ['audioTimestamp', true, ['openai', 'anthropic']],
        ['enableAffectiveDialog', true, ['openai', 'anthropic']],
        ['enableEnhancedCivicAnswers', true, ['openai', 'anthropic']],
      ] as [string, unknown, Target[]][]
    ).map(([key, value, to]) => ({
      field: `generationConfig.${key}`,
      extra: { generationConfig: { [key]: value } },
      label: `generationConfig.${key}`,
      to,
    })),
    {
      field: 'generationConfig.responseMimeType',
      extra: { generationConfig: { responseMimeType: 'text/x.enum' } },
      label: 'generationConfig.responseMimeType ("text/x.enum")',
      to: ['openai', 'anthropic'],
    },
    {
      field: 'generationConfig.responseMimeType',
      extra: { generationConfig: { responseMimeType: 'application/json' } },
      label: 'generationConfig.responseMimeType (JSON without a schema)',
      to: ['anthropic'],
    },
  ],
};

/** The channel formats each inbound format is converted to in this suite. */
const TARGETS: Record<WireFormat, Target[]> = {
  openai: ['anthropic', 'gemini'],
  responses: ['openai', 'anthropic', 'gemini'],
  anthropic: ['openai', 'gemini'],
  gemini: ['openai', 'anthropic'],
};

describe('request fields across wire formats: carried, mapped, left out or refused', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    root = await setupRoot(t);
    const models = [...Object.values(MODEL), CHAT_ONLY_MODEL];
    await putOption(root, 'ModelRatio', JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))));
    await putOption(root, 'CompletionRatio', JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))));
    await makeChannel(t, { type: 1, base_url: mock.url, models: MODEL.openai });
    await makeChannel(t, { type: 14, base_url: mock.url, models: MODEL.anthropic });
    await makeChannel(t, { type: 24, base_url: mock.url, models: MODEL.gemini });
    // An OpenAI-format channel without the Responses API: Responses calls are converted to chat.
    await makeChannel(t, { type: 37, base_url: mock.url, key: 'app-mock-dify', models: CHAT_ONLY_MODEL });
    await setQuota(t, root.userId!, 100_000_000);
    key = (await makeToken(t, root.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  /** A minimal call of `from` to the channel of format `to`, with `extra` merged in. */
  function call(from: WireFormat, to: Target, extra: Record<string, unknown>): Promise<Response> {
    const model = from === 'responses' && to === 'openai' ? CHAT_ONLY_MODEL : MODEL[to];
    const json = { 'content-type': 'application/json' };
    const send = (path: string, body: unknown, headers: Record<string, string>) =>
      fetch(`${t.url}${path}`, {
        method: 'POST',
        headers: { ...json, ...headers },
        body: JSON.stringify(body),
      });
    const bearer = { authorization: `Bearer ${key}` };
    switch (from) {
      case 'openai':
        return send(
          '/v1/chat/completions',
          { model, messages: [{ role: 'user', content: 'hi' }], ...extra },
          bearer,
        );
      case 'responses':
        return send('/v1/responses', { model, input: 'hi', ...extra }, bearer);
      case 'anthropic':
        return send(
          '/v1/messages',
          { model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }], ...extra },
          { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        );
      case 'gemini':
        return send(
          `/v1beta/models/${model}:generateContent`,
          { contents: [GEMINI_USER], ...extra },
          {
            'x-goog-api-key': key,
          },
        );
    }
  }

  const sent = (): Record<string, unknown> => mock.last!.body as Record<string, unknown>;

  it('has a refusal case for every field the tables refuse on each pair', () => {
    for (const [from, targets] of Object.entries(TARGETS) as [WireFormat, Target[]][]) {
      for (const rule of CARRY_TABLES[from]) {
        for (const to of targets) {
          if (rule.to[to] !== 'refused') continue;
          const covered = REFUSALS[from].some((c) => c.field === rule.field && c.to.includes(to));
          expect([from, to, rule.field, covered]).toEqual([from, to, rule.field, true]);
        }
      }
    }
  });

  describe.each(Object.keys(REFUSALS) as WireFormat[])('from %s', (from) => {
    it.each(TARGETS[from])(
      "refuses what a channel of format %s cannot carry: 400 in the caller's format, naming the field and the format, nothing sent",
      async (to) => {
        const cases = REFUSALS[from].filter((c) => c.to.includes(to));
        expect(cases.length).toBeGreaterThan(0);
        for (const c of cases) {
          mock.reset();
          const res = await call(from, to, c.extra);
          const body = (await res.json()) as {
            type?: string;
            error?: { message?: string; status?: string; type?: string };
          };
          expect([c.label, res.status]).toEqual([c.label, 400]);
          const message = body.error?.message ?? '';
          expect(message).toContain(c.label);
          expect(message).toContain(FORMAT_NAMES[to]);
          // In the caller's own error shape.
          if (from === 'gemini') expect(body.error?.status).toBe('INVALID_ARGUMENT');
          else if (from === 'anthropic') expect(body.type).toBe('error');
          else expect(body.error?.type).toBe('invalid_request_error');
          expect([c.label, mock.requests.length]).toEqual([c.label, 0]);
        }
      },
    );
  });

  it('answers in English when asked, naming the field and the format', async () => {
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        'accept-language': 'en',
      },
      body: JSON.stringify({
        model: MODEL.anthropic,
        messages: [{ role: 'user', content: 'hi' }],
        n: 2,
      }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      "The request's n (several choices) cannot be carried to a channel of the Anthropic format; remove it or use a channel that supports it",
    );
  });

  it('passes the values that ask for nothing the target lacks', async () => {
    mock.reset();
    const neutral = {
      n: 1,
      frequency_penalty: 0,
      presence_penalty: 0,
      logprobs: false,
      store: false,
      verbosity: 'medium',
      modalities: ['text'],
      logit_bias: {},
    };
    expect((await call('openai', 'anthropic', neutral)).status).toBe(200);
    const body = sent();
    for (const k of Object.keys(neutral)) expect([k, body[k]]).toEqual([k, undefined]);
    expect(
      (
        await call('gemini', 'anthropic', {
          generationConfig: { candidateCount: 1, responseModalities: ['TEXT'] },
        })
      ).status,
    ).toBe(200);
    expect((await call('responses', 'gemini', { store: false, text: { verbosity: 'medium' } })).status).toBe(
      200,
    );
  });

  describe('maps what has a counterpart', () => {
    it('OpenAI → Gemini: penalties, seed, several candidates, log probabilities', async () => {
      mock.reset();
      const res = await call('openai', 'gemini', {
        frequency_penalty: 0.5,
        presence_penalty: 0.25,
        seed: 7,
        n: 2,
        logprobs: true,
        top_logprobs: 3,
      });
      expect(res.status).toBe(200);
      expect(sent().generationConfig).toMatchObject({
        frequencyPenalty: 0.5,
        presencePenalty: 0.25,
        seed: 7,
        candidateCount: 2,
        responseLogprobs: true,
        logprobs: 3,
      });
    });

    it('OpenAI → Anthropic: safety_identifier as metadata.user_id, parallel_tool_calls false', async () => {
      mock.reset();
      const res = await call('openai', 'anthropic', {
        safety_identifier: 'hashed-user-1',
        tools: [FN_TOOL],
        parallel_tool_calls: false,
      });
      expect(res.status).toBe(200);
      expect(sent().metadata).toEqual({ user_id: 'hashed-user-1' });
      expect(sent().tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    });

    it('Anthropic top_k → Gemini topK, Gemini topK → Anthropic top_k', async () => {
      mock.reset();
      expect((await call('anthropic', 'gemini', { top_k: 5 })).status).toBe(200);
      expect(sent().generationConfig).toMatchObject({ topK: 5 });
      expect((await call('gemini', 'anthropic', { generationConfig: { topK: 40 } })).status).toBe(200);
      expect(sent().top_k).toBe(40);
      // Not an OpenAI field, but OpenAI-compatible clients send it: it reaches Anthropic and Gemini.
      expect((await call('openai', 'anthropic', { top_k: 3 })).status).toBe(200);
      expect(sent().top_k).toBe(3);
      expect((await call('openai', 'gemini', { top_k: 3 })).status).toBe(200);
      expect(sent().generationConfig).toMatchObject({ topK: 3 });
    });

    it('Gemini → OpenAI: candidateCount, seed, penalties, log probabilities', async () => {
      mock.reset();
      const res = await call('gemini', 'openai', {
        generationConfig: {
          candidateCount: 2,
          seed: 7,
          presencePenalty: 0.5,
          responseLogprobs: true,
          logprobs: 2,
        },
      });
      expect(res.status).toBe(200);
      expect(sent()).toMatchObject({ n: 2, seed: 7, presence_penalty: 0.5, logprobs: true, top_logprobs: 2 });
    });

    it('Responses → Gemini: top_logprobs as responseLogprobs', async () => {
      mock.reset();
      expect((await call('responses', 'gemini', { top_logprobs: 2 })).status).toBe(200);
      expect(sent().generationConfig).toMatchObject({ responseLogprobs: true, logprobs: 2 });
    });
  });

  describe('carries the images and files a channel can read', () => {
    const WEB = 'https://example.com/a.png';
    const DATA = `data:image/png;base64,${PNG}`;
    const PDF_DATA = 'data:application/pdf;base64,JVBERi0xLjQ=';
    const IMAGE_URL_BLOCK = { type: 'image', source: { type: 'url', url: WEB } };
    const IMAGE_DATA_BLOCK = {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG },
    };
    const PDF_BLOCK = {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' },
    };
    const userParts = (): unknown[] =>
      ((sent().contents as { role: string; parts: unknown[] }[]) ?? []).flatMap((c) => c.parts);
    const userBlocks = (): unknown[] =>
      ((sent().messages as { content: unknown }[]) ?? []).flatMap((m) =>
        Array.isArray(m.content) ? m.content : [],
      );

    it('OpenAI → Anthropic, Gemini: http(s) and base64 data URLs, gs:// on Gemini, files by data URL', async () => {
      mock.reset();
      const content = [
        imageUrl(WEB),
        imageUrl(DATA),
        { type: 'file', file: { file_data: PDF_DATA, filename: 'a.pdf' } },
        { type: 'text', text: 'what?' },
      ];
      expect((await call('openai', 'anthropic', { messages: [{ role: 'user', content }] })).status).toBe(200);
      expect(userBlocks()).toEqual([
        IMAGE_URL_BLOCK,
        IMAGE_DATA_BLOCK,
        PDF_BLOCK,
        { type: 'text', text: 'what?' },
      ]);
      const withGs = [...content.slice(0, 3), imageUrl('gs://bucket/b.png'), content[3]];
      expect((await call('openai', 'gemini', { messages: [{ role: 'user', content: withGs }] })).status).toBe(
        200,
      );
      expect(userParts()).toEqual([
        { fileData: { mimeType: 'image/png', fileUri: WEB } },
        { inlineData: { mimeType: 'image/png', data: PNG } },
        { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0xLjQ=' } },
        { fileData: { mimeType: 'image/png', fileUri: 'gs://bucket/b.png' } },
        { text: 'what?' },
      ]);
    });

    it('Responses → Anthropic, Gemini: input_image by http(s) or data URL, input_file by data URL', async () => {
      mock.reset();
      const input = [
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: WEB },
            { type: 'input_image', image_url: DATA },
            { type: 'input_file', file_data: PDF_DATA, filename: 'a.pdf' },
            { type: 'input_text', text: 'what?' },
          ],
        },
      ];
      expect((await call('responses', 'anthropic', { input })).status).toBe(200);
      expect(userBlocks()).toEqual([
        IMAGE_URL_BLOCK,
        IMAGE_DATA_BLOCK,
        PDF_BLOCK,
        { type: 'text', text: 'what?' },
      ]);
      expect((await call('responses', 'gemini', { input })).status).toBe(200);
      expect(userParts()).toEqual([
        { fileData: { mimeType: 'image/png', fileUri: WEB } },
        { inlineData: { mimeType: 'image/png', data: PNG } },
        { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0xLjQ=' } },
        { text: 'what?' },
      ]);
    });

    it('Anthropic → OpenAI, Gemini: image URL, and the documents a tool returned beside its result', async () => {
      mock.reset();
      const extra = {
        tools: [{ name: 'f', input_schema: { type: 'object', properties: {} } }],
        messages: [
          { role: 'user', content: [IMAGE_URL_BLOCK, { type: 'text', text: 'Read it' }] },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'toolu_1',
                content: [{ type: 'text', text: 'done' }, PDF_BLOCK],
              },
            ],
          },
        ],
      };
      expect((await call('anthropic', 'openai', extra)).status).toBe(200);
      const messages = sent().messages as { role: string; content: unknown }[];
      expect(messages.find((m) => m.role === 'tool')?.content).toBe('done');
      expect(messages.at(-1)).toEqual({
        role: 'user',
        content: [{ type: 'file', file: { file_data: PDF_DATA } }],
      });
      expect(messages[0].content).toEqual([
        { type: 'image_url', image_url: { url: WEB } },
        { type: 'text', text: 'Read it' },
      ]);
      expect((await call('anthropic', 'gemini', extra)).status).toBe(200);
      expect(userParts()).toContainEqual({ fileData: { mimeType: 'image/png', fileUri: WEB } });
      expect(userParts()).toContainEqual({
        inlineData: { mimeType: 'application/pdf', data: 'JVBERi0xLjQ=' },
      });
    });

    it('Gemini → Anthropic: fileData images as image URLs, PDFs as document URLs; → OpenAI: images', async () => {
      mock.reset();
      const contents = [
        {
          role: 'user',
          parts: [
            { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/a.pdf' } },
            { fileData: { mimeType: 'image/png', fileUri: WEB } },
            { text: 'what?' },
          ],
        },
      ];
      expect((await call('gemini', 'anthropic', { contents })).status).toBe(200);
      expect(userBlocks()).toEqual([
        { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
        IMAGE_URL_BLOCK,
        { type: 'text', text: 'what?' },
      ]);
      const images = [{ role: 'user', parts: contents[0].parts.slice(1) }];
      expect((await call('gemini', 'openai', { contents: images })).status).toBe(200);
      expect((sent().messages as { content: unknown }[])[0].content).toEqual([
        { type: 'image_url', image_url: { url: WEB } },
        { type: 'text', text: 'what?' },
      ]);
    });
  });

  describe('drops the sampling hints a channel has no knob for, names them, and serves the call', () => {
    it.each([
      [
        'gemini',
        'openai',
        { generationConfig: { topK: 40, topP: 0.9 } },
        ['generationConfig.topK'],
        ['top_k'],
      ],
      ['anthropic', 'openai', { top_k: 5 }, ['top_k'], ['top_k']],
      [
        'openai',
        'anthropic',
        {
          frequency_penalty: 0.5,
          presence_penalty: 0,
          seed: 7,
          logit_bias: { '50256': -100 },
          verbosity: 'low',
        },
        ['frequency_penalty', 'logit_bias', 'seed', 'verbosity'],
        ['frequency_penalty', 'presence_penalty', 'seed', 'logit_bias', 'verbosity'],
      ],
      ['openai', 'gemini', { logit_bias: { '1': 5 }, verbosity: 'high' }, ['logit_bias', 'verbosity'], []],
      [
        'gemini',
        'anthropic',
        { generationConfig: { presencePenalty: 0.5, frequencyPenalty: 0.5, seed: 7 } },
        ['generationConfig.presencePenalty', 'generationConfig.frequencyPenalty', 'generationConfig.seed'],
        ['presence_penalty', 'frequency_penalty', 'seed'],
      ],
      ['responses', 'anthropic', { text: { verbosity: 'low' } }, ['text.verbosity'], ['verbosity']],
      ['responses', 'gemini', { text: { verbosity: 'high' } }, ['text.verbosity'], []],
    ] as [WireFormat, Target, Record<string, unknown>, string[], string[]][])(
      '%s → %s',
      async (from, to, extra, named, absent) => {
        mock.reset();
        const res = await call(from, to, extra);
        expect(res.status).toBe(200);
        expect(res.headers.get('x-gatehouse-dropped-params')).toBe(named.join(', '));
        const body = sent();
        const config = (body.generationConfig ?? {}) as Record<string, unknown>;
        for (const k of absent) expect([k, k in body]).toEqual([k, false]);
        if (from === 'gemini' && to === 'openai') expect(body.top_p).toBe(0.9);
        if (to === 'gemini') for (const k of ['logitBias', 'verbosity']) expect(k in config).toBe(false);
        await settle(t);
        const log = (await logsOf(t, root.userId!)).at(-1)!;
        expect(log.other.dropped_params).toEqual(named);
      },
    );

    it("names nothing when nothing was dropped, nor on a channel of the caller's own format", async () => {
      mock.reset();
      const plain = await call('gemini', 'openai', { generationConfig: { topP: 0.9 } });
      expect(plain.status).toBe(200);
      expect(plain.headers.get('x-gatehouse-dropped-params')).toBeNull();
      const same = await call('openai', 'openai', { seed: 7, logit_bias: { '1': 5 } });
      expect(same.status).toBe(200);
      expect(same.headers.get('x-gatehouse-dropped-params')).toBeNull();
      expect(sent()).toMatchObject({ seed: 7, logit_bias: { '1': 5 } });
    });
  });

  describe('leaves out what cannot change the answer, and serves the call', () => {
    it.each([
      [
        'openai',
        'anthropic',
        {
          prompt_cache_key: 'k1',
          service_tier: 'flex',
          metadata: { tag: 'x' },
          prediction: { type: 'content', content: 'x' },
          stream_options: null,
        },
      ],
      [
        'openai',
        'gemini',
        { user: 'u1', safety_identifier: 's1', prompt_cache_key: 'k1', parallel_tool_calls: false },
      ],
      [
        'anthropic',
        'openai',
        {
          cache_control: { type: 'ephemeral' },
          context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
          speed: 'fast',
          service_tier: 'auto',
          diagnostics: {},
        },
      ],
      ['anthropic', 'gemini', { metadata: { user_id: 'session-1' }, service_tier: 'auto' }],
      [
        'gemini',
        'openai',
        {
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
          labels: { team: 'a' },
        },
      ],
      ['gemini', 'anthropic', { generationConfig: { mediaResolution: 'MEDIA_RESOLUTION_LOW' } }],
      [
        'responses',
        'anthropic',
        { include: ['reasoning.encrypted_content'], truncation: 'auto', metadata: { tag: 'x' } },
      ],
      ['responses', 'gemini', { prompt_cache_key: 'k1', service_tier: 'priority', max_tool_calls: 3 }],
    ] as [WireFormat, Target, Record<string, unknown>][])('%s → %s', async (from, to, extra) => {
      mock.reset();
      const res = await call(from, to, extra);
      expect(res.status).toBe(200);
      const upstream = JSON.stringify(sent());
      for (const k of Object.keys(extra)) {
        // The upstream body has none of them (Anthropic metadata only carries the mapped user id).
        if (k === 'metadata' && to === 'anthropic') continue;
        const body = sent();
        const config = (body.generationConfig ?? {}) as Record<string, unknown>;
        expect([k, k in body || k in config]).toEqual([k, false]);
      }
      for (const value of ['clear_thinking_20251015', 'BLOCK_NONE', 'reasoning.encrypted_content', '"tag"'])
        expect(upstream).not.toContain(value);
    });
  });
});
