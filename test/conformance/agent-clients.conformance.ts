import { GoogleGenAI } from '@google/genai';
import { MockUpstream } from '../mocks/mock-upstream';
import { logsOf, makeChannel, makeToken, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

/**
 * Recorded clients on channels of another format: the bodies and headers the Gemini CLI and Codex
 * really send (their request shapes as facts), through a whole tool round trip. The Gemini CLI sends
 * `generationConfig.topK` on every call, which an OpenAI channel has no knob for; Codex declares its
 * MCP tools as `namespace` tools, which no other provider has.
 */
const OPENAI_MODEL = 'rec-openai';
const CLAUDE_MODEL = 'rec-claude';
const GEMINI_MODEL = 'rec-gemini';
const EMBEDDING_MODEL = 'rec-embedding-001';
const REPLY = 'Hello from the mock upstream.';

/** Reads a server-sent event stream into its events (`event:` name and parsed `data:`). */
function sseEvents(text: string): Array<{ event?: string; data: Record<string, unknown> }> {
  const out: Array<{ event?: string; data: Record<string, unknown> }> = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length && data.join('\n') !== '[DONE]')
      out.push({ event, data: JSON.parse(data.join('\n')) as Record<string, unknown> });
  }
  return out;
}

/** The Gemini CLI's headers (@google/genai underneath). */
const GEMINI_CLI_HEADERS = {
  'user-agent': 'GeminiCLI/0.18.0 (linux; x64)',
  'x-goog-api-client': 'google-genai-sdk/1.30.0 gl-node/v20.19.0',
};

/** The Gemini CLI's list_directory tool, declared with a JSON Schema (parametersJsonSchema). */
const LIST_DIRECTORY = {
  name: 'list_directory',
  description: 'Lists the names of files and subdirectories directly within a specified directory path.',
  parametersJsonSchema: {
    type: 'object',
    properties: {
      dir_path: { type: 'string', description: 'The path to the directory to list' },
      ignore: { type: 'array', items: { type: 'string' }, description: 'Glob patterns to ignore' },
    },
    required: ['dir_path'],
  },
};

/** The body of each Gemini CLI turn: system prompt, tools, and its generation config (topK included). */
function geminiCliBody(contents: unknown[]): Record<string, unknown> {
  return {
    contents,
    systemInstruction: {
      role: 'user',
      parts: [{ text: 'You are an interactive CLI agent specializing in software engineering tasks.' }],
    },
    tools: [{ functionDeclarations: [LIST_DIRECTORY] }],
    generationConfig: {
      temperature: 1,
      topP: 0.95,
      topK: 64,
      thinkingConfig: { includeThoughts: true, thinkingBudget: -1 },
    },
  };
}

/** Codex's MCP tools as it declares them: a namespace of function tools, beside its own shell tool. */
const CODEX_TOOLS = [
  {
    type: 'function',
    name: 'shell',
    description: 'Runs a shell command and returns its output.',
    strict: false,
    parameters: {
      type: 'object',
      properties: { command: { type: 'array', items: { type: 'string' } } },
      required: ['command'],
      additionalProperties: false,
    },
  },
  {
    type: 'namespace',
    name: 'docs',
    description: 'Tools of the MCP server "docs".',
    tools: [
      {
        type: 'function',
        name: 'search',
        description: 'Searches the documentation.',
        strict: false,
        parameters: {
          type: 'object',
          properties: { query: { type: 'string' } },
          required: ['query'],
          additionalProperties: false,
        },
      },
    ],
  },
];

function codexBody(input: unknown[]): Record<string, unknown> {
  return {
    model: CLAUDE_MODEL,
    instructions: 'You are Codex, a coding agent running in a terminal.',
    input,
    tools: CODEX_TOOLS,
    tool_choice: 'auto',
    parallel_tool_calls: false,
    reasoning: null,
    store: false,
    stream: true,
    include: [],
    prompt_cache_key: '0199a1c2-7d3e-7b50-9f1e-codexsession02',
  };
}

const CODEX_HEADERS = {
  'openai-beta': 'responses=experimental',
  originator: 'codex_cli_rs',
  session_id: '0199a1c2-7d3e-7b50-9f1e-codexsession02',
  accept: 'text/event-stream',
};

describe('recorded agent clients on channels of another format', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    root = await setupRoot(t);
    const models = [OPENAI_MODEL, CLAUDE_MODEL, GEMINI_MODEL, EMBEDDING_MODEL];
    await putOption(root, 'ModelRatio', JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))));
    await putOption(root, 'CompletionRatio', JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))));
    await makeChannel(t, { type: 1, base_url: mock.url, models: OPENAI_MODEL });
    await makeChannel(t, { type: 14, base_url: mock.url, models: CLAUDE_MODEL });
    await makeChannel(t, { type: 24, base_url: mock.url, models: `${GEMINI_MODEL},${EMBEDDING_MODEL}` });
    await setQuota(t, root.userId!, 10_000_000);
    key = (await makeToken(t, root.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('Gemini CLI on an OpenAI channel: a list_directory round trip, topK dropped and named', async () => {
    mock.reset();
    const path = `/v1beta/models/${OPENAI_MODEL}:streamGenerateContent?alt=sse`;
    const headers = { ...GEMINI_CLI_HEADERS, 'x-goog-api-key': key };
    const ask = { role: 'user', parts: [{ text: 'What is in src? [[tool=list_directory]]' }] };
    const first = await post(path, geminiCliBody([ask]), headers);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-gatehouse-dropped-params')).toBe('generationConfig.topK');
    const chunks = sseEvents(await first.text()).map((e) => e.data);
    const parts = chunks.flatMap(
      (c) =>
        (c.candidates as Array<{ content?: { parts?: Array<Record<string, unknown>> } }>)[0].content?.parts ??
        [],
    );
    const call = parts.find((p) => p.functionCall)?.functionCall as { name: string; args: unknown };
    expect(call).toMatchObject({ name: 'list_directory', args: { city: 'Paris' } });
    // The channel got a chat call: the tool as a function, the sampling it has knobs for, no top_k.
    const sent = mock.last!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ temperature: 1, top_p: 0.95 });
    expect('top_k' in sent).toBe(false);
    expect(sent.tools).toEqual([
      {
        type: 'function',
        function: expect.objectContaining({
          name: 'list_directory',
          parameters: LIST_DIRECTORY.parametersJsonSchema,
        }),
      },
    ]);

    // Turn 2: the CLI sends the call back with the tool's result.
    const second = await post(
      path,
      geminiCliBody([
        { role: 'user', parts: [{ text: 'What is in src?' }] },
        { role: 'model', parts: [{ functionCall: call }] },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'list_directory', response: { output: 'main.ts\nutil.ts' } } }],
        },
      ]),
      headers,
    );
    expect(second.status).toBe(200);
    expect(second.headers.get('x-gatehouse-dropped-params')).toBe('generationConfig.topK');
    const text = sseEvents(await second.text())
      .flatMap(
        (e) =>
          (e.data.candidates as Array<{ content?: { parts?: Array<{ text?: string }> } }>)[0].content
            ?.parts ?? [],
      )
      .map((p) => p.text ?? '')
      .join('');
    expect(text).toBe(REPLY);
    const messages = (mock.last!.body as { messages: Array<Record<string, unknown>> }).messages;
    const assistant = messages.find((m) => m.role === 'assistant') as {
      tool_calls: Array<{ id: string; function: { name: string } }>;
    };
    const tool = messages.find((m) => m.role === 'tool')!;
    expect(assistant.tool_calls[0].function.name).toBe('list_directory');
    expect(tool.tool_call_id).toBe(assistant.tool_calls[0].id);
    expect(String(tool.content)).toContain('main.ts');
    await settle(t);
    expect((await logsOf(t, root.userId!)).at(-1)!.other.dropped_params).toEqual(['generationConfig.topK']);
  });

  it('Codex on an Anthropic channel: a namespace tool round trip, its call mapped back to namespace and name', async () => {
    mock.reset();
    const ask = {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'find the setup page' }],
    };
    const first = await post(
      '/v1/responses',
      codexBody([
        { ...ask, content: [{ type: 'input_text', text: 'find the setup page [[tool=docs__search]]' }] },
      ]),
      { ...CODEX_HEADERS, authorization: `Bearer ${key}` },
    );
    expect(first.status).toBe(200);
    expect(first.headers.get('x-gatehouse-dropped-params')).toBeNull();
    const events = sseEvents(await first.text());
    // The Anthropic channel was sent the namespace's function under its qualified name.
    const sent = mock.last!.body as { tools: Array<{ name: string; input_schema: unknown }> };
    expect(sent.tools.map((x) => x.name)).toEqual(['shell', 'docs__search']);
    expect(sent.tools[1].input_schema).toEqual(CODEX_TOOLS[1].tools![0].parameters);
    const done = events.find(
      (e) =>
        e.data.type === 'response.output_item.done' &&
        (e.data.item as { type: string }).type === 'function_call',
    );
    const item = done?.data.item as { call_id: string; name: string; namespace: string; arguments: string };
    expect(item).toMatchObject({ type: 'function_call', namespace: 'docs', name: 'search' });
    expect(JSON.parse(item.arguments)).toEqual({ city: 'Paris' });
    const args = events.find((e) => e.data.type === 'response.function_call_arguments.done');
    expect(args?.data).toMatchObject({ name: 'search', arguments: item.arguments });
    const completed = events.at(-1)!.data as { type: string; response: Record<string, unknown> };
    expect(completed.type).toBe('response.completed');
    // The Response states the request it answers: its instructions and tools as sent.
    expect(completed.response).toMatchObject({
      instructions: 'You are Codex, a coding agent running in a terminal.',
      tools: CODEX_TOOLS,
      parallel_tool_calls: false,
    });
    expect((completed.response.output as unknown[]).at(-1)).toMatchObject({
      namespace: 'docs',
      name: 'search',
    });

    // Turn 2: Codex sends the call (with its namespace) and the tool's output back.
    const second = await post(
      '/v1/responses',
      codexBody([
        ask,
        {
          type: 'function_call',
          call_id: item.call_id,
          namespace: 'docs',
          name: 'search',
          arguments: item.arguments,
        },
        { type: 'function_call_output', call_id: item.call_id, output: 'docs/setup.md' },
      ]),
      { ...CODEX_HEADERS, authorization: `Bearer ${key}` },
    );
    expect(second.status).toBe(200);
    const text = sseEvents(await second.text())
      .filter((e) => e.data.type === 'response.output_text.delta')
      .map((e) => e.data.delta)
      .join('');
    expect(text).toBe(REPLY);
    const messages = (mock.last!.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    const blocks = messages.flatMap((m) =>
      Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : [],
    );
    const use = blocks.find((b) => b.type === 'tool_use')!;
    // The caller saw the call in its own id form; the channel gets its own id back.
    expect(item.call_id).toMatch(/^call_/);
    const own = item.call_id.replace(/^call_/, 'toolu_');
    expect(use).toMatchObject({ id: own, name: 'docs__search', input: { city: 'Paris' } });
    expect(blocks.find((b) => b.type === 'tool_result')).toMatchObject({ tool_use_id: own });
    expect(JSON.stringify(messages)).toContain('docs/setup.md');
  });

  it('Codex non-stream on an Anthropic channel: the namespaced call in the Response output', async () => {
    mock.reset();
    const res = await post(
      '/v1/responses',
      {
        ...codexBody([{ role: 'user', content: 'search [[tool=docs__search]]' }]),
        stream: false,
      },
      { authorization: `Bearer ${key}` },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { output: Array<Record<string, unknown>>; tools: unknown };
    expect(body.output.find((o) => o.type === 'function_call')).toMatchObject({
      namespace: 'docs',
      name: 'search',
    });
    expect(body.tools).toEqual(CODEX_TOOLS);
  });

  it('Claude Code on a Gemini channel: the call ids of successive turns never repeat', async () => {
    mock.reset();
    const headers = { 'x-api-key': key, 'anthropic-version': '2023-06-01' };
    const tools = [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }];
    const ask = { role: 'user', content: 'Weather in Paris? [[tool=get_weather]]' };
    const turn = async (messages: unknown[], stream: boolean) => {
      const res = await post(
        '/v1/messages',
        { model: GEMINI_MODEL, max_tokens: 256, tools, messages, stream },
        headers,
      );
      expect(res.status).toBe(200);
      if (!stream) return ((await res.json()) as { content: Array<{ type: string; id: string }> }).content;
      return sseEvents(await res.text())
        .filter((e) => e.data.type === 'content_block_start')
        .map((e) => e.data.content_block as { type: string; id: string });
    };
    const first = (await turn([ask], false)).find((b) => b.type === 'tool_use')!;
    const history = [
      ask,
      { role: 'assistant', content: [{ type: 'tool_use', id: first.id, name: 'get_weather', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: first.id, content: '18°C' },
          { type: 'text', text: 'And in Rome? [[tool=get_weather]]' },
        ],
      },
    ];
    const second = (await turn(history, false)).find((b) => b.type === 'tool_use')!;
    const third = (await turn(history, true)).find((b) => b.type === 'tool_use')!;
    expect(new Set([first.id, second.id, third.id]).size).toBe(3);
  });

  describe('Gemini models (list and models.get)', () => {
    const get = (path: string) => fetch(`${t.url}${path}`, { headers: { 'x-goog-api-key': key } });

    it('serves GET /v1beta/models/{model} (@google/genai models.get), and 404 NOT_FOUND for another', async () => {
      const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: t.url } });
      const model = await ai.models.get({ model: GEMINI_MODEL });
      expect(model).toMatchObject({ name: `models/${GEMINI_MODEL}`, displayName: GEMINI_MODEL });
      expect(model.supportedActions).toContain('generateContent');
      const missing = await get('/v1beta/models/no-such-model');
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
    });

    it('lists embedding models with embedContent, generation models with generateContent, both with countTokens', async () => {
      const res = await get('/v1beta/models');
      expect(res.status).toBe(200);
      const models = (
        (await res.json()) as { models: Array<{ name: string; supportedGenerationMethods: string[] }> }
      ).models;
      const methods = (name: string) =>
        models.find((m) => m.name === `models/${name}`)?.supportedGenerationMethods;
      expect(methods(EMBEDDING_MODEL)).toEqual(expect.arrayContaining(['embedContent', 'countTokens']));
      expect(methods(EMBEDDING_MODEL)).not.toContain('generateContent');
      expect(methods(GEMINI_MODEL)).toEqual(expect.arrayContaining(['generateContent', 'countTokens']));
      expect(methods(GEMINI_MODEL)).not.toContain('embedContent');
      const one = await get(`/v1beta/models/${EMBEDDING_MODEL}`);
      expect(
        ((await one.json()) as { supportedGenerationMethods: string[] }).supportedGenerationMethods,
      ).toContain('embedContent');
    });
  });

  it('sends Gemini channels JSON Schema as parametersJsonSchema / responseJsonSchema, additionalProperties kept', async () => {
    mock.reset();
    const schema = {
      type: 'object',
      properties: { answer: { type: 'string' } },
      required: ['answer'],
      additionalProperties: false,
    };
    const res = await post(
      '/v1/chat/completions',
      {
        model: GEMINI_MODEL,
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'function', function: { name: 'lookup', strict: true, parameters: schema } }],
        response_format: { type: 'json_schema', json_schema: { name: 'a', strict: true, schema } },
      },
      { authorization: `Bearer ${key}` },
    );
    expect(res.status).toBe(200);
    const sent = mock.last!.body as {
      tools: Array<{ functionDeclarations: Array<Record<string, unknown>> }>;
      generationConfig: Record<string, unknown>;
    };
    expect(sent.tools[0].functionDeclarations[0]).toEqual({ name: 'lookup', parametersJsonSchema: schema });
    expect(sent.generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
    expect('responseSchema' in sent.generationConfig).toBe(false);
  });

  it.each([GEMINI_MODEL, OPENAI_MODEL, CLAUDE_MODEL])(
    'answers streamGenerateContent without alt=sse as a JSON array of chunks (%s), with alt=sse as events',
    async (model) => {
      const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
      const headers = { 'x-goog-api-key': key };
      const array = await post(`/v1beta/models/${model}:streamGenerateContent`, body, headers);
      expect(array.status).toBe(200);
      expect(array.headers.get('content-type')).toContain('application/json');
      const chunks = JSON.parse(await array.text()) as Array<{
        candidates?: Array<{ content?: { parts?: Array<{ text?: string }> } }>;
      }>;
      expect(Array.isArray(chunks)).toBe(true);
      const text = chunks
        .flatMap((c) => c.candidates?.[0]?.content?.parts ?? [])
        .map((p) => p.text ?? '')
        .join('');
      expect(text).toBe(REPLY);
      const sse = await post(`/v1beta/models/${model}:streamGenerateContent?alt=sse`, body, headers);
      expect(sse.headers.get('content-type')).toContain('text/event-stream');
      expect(sseEvents(await sse.text()).length).toBeGreaterThan(0);
    },
  );

  it("answers ids in the caller's form, and a tool id sent back reaches the channel as its own", async () => {
    mock.reset();
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];
    const bearer = { authorization: `Bearer ${key}` };
    // An OpenAI caller on an Anthropic channel: chatcmpl- and call_ ids, not msg_ and toolu_.
    const chat = await post(
      '/v1/chat/completions',
      { model: CLAUDE_MODEL, tools, messages: [{ role: 'user', content: 'hi [[tool=get_weather]]' }] },
      bearer,
    );
    const answer = (await chat.json()) as {
      id: string;
      choices: Array<{ message: { tool_calls: Array<{ id: string }> } }>;
    };
    expect(answer.id).toMatch(/^chatcmpl-/);
    const callId = answer.choices[0].message.tool_calls[0].id;
    expect(callId).toMatch(/^call_/);
    await post(
      '/v1/chat/completions',
      {
        model: CLAUDE_MODEL,
        tools,
        messages: [
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: callId, type: 'function', function: { name: 'get_weather', arguments: '{}' } },
            ],
          },
          { role: 'tool', tool_call_id: callId, content: '18°C' },
        ],
      },
      bearer,
    );
    const sent = JSON.stringify((mock.last!.body as { messages: unknown }).messages);
    expect(sent).toContain(`"id":"toolu_${callId.slice(5)}"`);
    expect(sent).toContain(`"tool_use_id":"toolu_${callId.slice(5)}"`);

    // An Anthropic caller on an OpenAI channel: msg_ and toolu_ ids, not chatcmpl- and call_.
    const anthropic = { 'x-api-key': key, 'anthropic-version': '2023-06-01' };
    const message = await post(
      '/v1/messages',
      {
        model: OPENAI_MODEL,
        max_tokens: 64,
        tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
        messages: [{ role: 'user', content: 'hi [[tool=get_weather]]' }],
      },
      anthropic,
    );
    const body = (await message.json()) as { id: string; content: Array<{ type: string; id: string }> };
    expect(body.id).toMatch(/^msg_/);
    const use = body.content.find((b) => b.type === 'tool_use')!;
    expect(use.id).toMatch(/^toolu_/);
  });
});
