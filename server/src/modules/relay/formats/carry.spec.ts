/**
 * The carry tables against the facts: every request field the official SDKs declare (OpenAI chat
 * and Responses, Anthropic Messages with its betas, @google/genai's generation config) has a fate on
 * every channel format its format converts to, and docs/agents.md shows the tables as they are.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { Json, JsonObject, WireFormat } from '../types';
import { CARRY_TABLES, carryTables, CONVERSIONS, droppedFields, uncarriedField } from './carry';

const ROOT = join(__dirname, '../../../../..');

/** The property names of the interfaces named `names` in a declaration file of node_modules. */
function sdkFields(file: string, ...names: string[]): string[] {
  const path = join(ROOT, 'node_modules', file);
  const program = ts.createProgram([path], { noResolve: false, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) &&
      names.includes(node.name.text)
    )
      out.push(
        ...checker
          .getTypeAtLocation(node.name)
          .getProperties()
          .map((p) => p.name),
      );
    if (ts.isModuleDeclaration(node) && node.body) ts.forEachChild(node.body, visit);
  };
  ts.forEachChild(program.getSourceFile(path)!, visit);
  if (out.length === 0) throw new Error(`${names.join(', ')} not found in ${file}`);
  return [...new Set(out)];
}

const fieldsOf = (format: WireFormat): string[] => CARRY_TABLES[format].map((r) => r.field);

describe('carry tables', () => {
  it('classify every field of the OpenAI chat completions request', () => {
    const facts = sdkFields(
      'openai/resources/chat/completions/completions.d.ts',
      'ChatCompletionCreateParamsBase',
    );
    expect(facts).toContain('logit_bias');
    expect(facts.filter((f) => !fieldsOf('openai').includes(f))).toEqual([]);
  });

  it('classify every field of the OpenAI Responses request', () => {
    const facts = sdkFields('openai/resources/responses/responses.d.ts', 'ResponseCreateParamsBase');
    expect(facts).toContain('previous_response_id');
    expect(facts.filter((f) => !fieldsOf('responses').includes(f))).toEqual([]);
  });

  it('classify every body field of the Anthropic Messages request, betas included', () => {
    // Header parameters of the SDK (sent as headers, never in the body).
    const headers = ['betas', 'user_profile_id', 'workspace_id'];
    const facts = [
      ...sdkFields('@anthropic-ai/sdk/resources/messages/messages.d.ts', 'MessageCreateParamsBase'),
      ...sdkFields('@anthropic-ai/sdk/resources/beta/messages/messages.d.ts', 'MessageCreateParamsBase'),
      // Sampling fields the API still takes from earlier models' clients.
      'temperature',
      'top_p',
      'top_k',
    ].filter((f) => !headers.includes(f));
    expect(facts).toContain('context_management');
    expect([...new Set(facts)].filter((f) => !fieldsOf('anthropic').includes(f))).toEqual([]);
  });

  it('classify every field of the Gemini generateContent request and its generationConfig', () => {
    const generation = sdkFields('@google/genai/dist/genai.d.ts', 'GenerationConfig');
    const config = sdkFields('@google/genai/dist/genai.d.ts', 'GenerateContentConfig');
    // The SDK's own switches, not sent: transport, cancellation, its function-calling loop.
    const local = ['httpOptions', 'abortSignal', 'automaticFunctionCalling'];
    const facts = [
      'contents',
      ...generation.map((f) => `generationConfig.${f}`),
      ...config
        .filter((f) => !generation.includes(f) && !local.includes(f))
        .map((f) => {
          // Fields of the SDK's flat config that the REST body keeps in generationConfig.
          return ['imageConfig'].includes(f) ? `generationConfig.${f}` : f;
        }),
    ];
    expect(facts).toContain('generationConfig.topK');
    expect(facts.filter((f) => !fieldsOf('gemini').includes(f))).toEqual([]);
  });

  it('give every field a fate on every channel format its format converts to', () => {
    for (const [from, targets] of Object.entries(CONVERSIONS) as [WireFormat, WireFormat[]][]) {
      for (const rule of CARRY_TABLES[from]) {
        for (const to of targets) expect([rule.field, to, rule.to[to] ?? 'missing']).not.toContain('missing');
        expect(rule.note.length).toBeGreaterThan(0);
      }
      expect(new Set(fieldsOf(from)).size).toBe(fieldsOf(from).length);
    }
  });

  it('are the tables docs/agents.md shows', () => {
    const docs = readFileSync(join(ROOT, 'docs/agents.md'), 'utf8');
    expect(docs).toContain(carryTables());
  });
});

describe('uncarriedField', () => {
  const chat = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

  it('refuses only the values a refused field singles out', () => {
    expect(uncarriedField('openai', 'anthropic', { ...chat, n: 1, logprobs: false })).toBeNull();
    expect(uncarriedField('openai', 'anthropic', { ...chat, n: 2 })).toBe('n (several choices)');
    expect(uncarriedField('openai', 'anthropic', { ...chat, top_logprobs: 2 })).toBe('top_logprobs');
    expect(uncarriedField('openai', 'gemini', { ...chat, top_logprobs: 2 })).toBeNull();
  });

  it('never refuses a sampling hint the target has no knob for: it is dropped and named', () => {
    const hints = {
      ...chat,
      frequency_penalty: 0.5,
      presence_penalty: 0,
      seed: 7,
      logit_bias: { '50256': -100 },
      verbosity: 'low',
    };
    expect(uncarriedField('openai', 'anthropic', hints)).toBeNull();
    expect(droppedFields('openai', 'anthropic', hints)).toEqual([
      'frequency_penalty',
      'logit_bias',
      'seed',
      'verbosity',
    ]);
    expect(droppedFields('openai', 'gemini', hints)).toEqual(['logit_bias', 'verbosity']);
    // Values that ask for nothing are not named.
    expect(droppedFields('openai', 'gemini', { ...chat, logit_bias: {}, verbosity: 'medium' })).toEqual([]);
    expect(droppedFields('anthropic', 'openai', { top_k: 5 })).toEqual(['top_k']);
    expect(droppedFields('anthropic', 'gemini', { top_k: 5 })).toEqual([]);
    expect(droppedFields('responses', 'gemini', { text: { verbosity: 'high' } })).toEqual(['text.verbosity']);
    expect(droppedFields('responses', 'openai', { text: { verbosity: 'high' } })).toEqual([]);
    expect(droppedFields('openai', 'openai', hints)).toEqual([]);
  });

  it('converts namespace tools of functions and refuses what a namespace holds otherwise', () => {
    const fn = { type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} } };
    const ns = (tools: Json[]): JsonObject => ({
      tools: [{ type: 'namespace', name: 'crm', description: 'CRM', tools }],
    });
    for (const to of ['openai', 'anthropic', 'gemini'] as const) {
      expect(uncarriedField('responses', to, ns([fn]))).toBeNull();
      expect(uncarriedField('responses', to, ns([fn, { type: 'custom', name: 'grammar' }]))).toBe(
        'tools (namespace member of type "custom")',
      );
    }
  });

  it('refuses parts of a mapped field the target cannot take', () => {
    const audio = {
      role: 'user',
      content: [{ type: 'input_audio', input_audio: { data: 'AA==', format: 'wav' } }],
    };
    expect(uncarriedField('openai', 'anthropic', { ...chat, messages: [audio] })).toBe(
      'messages (input_audio content)',
    );
    expect(uncarriedField('openai', 'gemini', { ...chat, messages: [audio] })).toBeNull();
    expect(
      uncarriedField('openai', 'gemini', { ...chat, response_format: { type: 'json_object' } }),
    ).toBeNull();
    expect(uncarriedField('openai', 'anthropic', { ...chat, response_format: { type: 'json_object' } })).toBe(
      'response_format (json_object)',
    );
    expect(
      uncarriedField('anthropic', 'openai', { tools: [{ type: 'web_search_20250305', name: 'web_search' }] }),
    ).toBe('tools (type "web_search_20250305")');
    expect(uncarriedField('anthropic', 'openai', { tools: [{ name: 'Bash', input_schema: {} }] })).toBeNull();
  });

  it('refuses content parts a converter would drop, and passes the ones it carries', () => {
    const image = (url: string) => ({
      ...chat,
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }],
    });
    for (const url of ['file-abc', 'ftp://example.com/a.png', 'data:image/png,abc'])
      for (const to of ['anthropic', 'gemini'] as const)
        expect([url, to, uncarriedField('openai', to, image(url))]).toEqual([
          url,
          to,
          'messages (image_url not an http(s) or base64 data URL)',
        ]);
    expect(uncarriedField('openai', 'anthropic', image('gs://bucket/a.png'))).toBe(
      'messages (image_url not an http(s) or base64 data URL)',
    );
    for (const url of [
      'gs://bucket/a.png',
      'https://example.com/a.png',
      'data:image/png;base64,iVBORw0KGgo=',
    ])
      expect([url, uncarriedField('openai', 'gemini', image(url))]).toEqual([url, null]);
    expect(uncarriedField('openai', 'anthropic', image('HTTPS://example.com/a.png'))).toBeNull();
    const file = {
      ...chat,
      messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: 'JVBERi0x' } }] }],
    };
    expect(uncarriedField('openai', 'gemini', file)).toBe('messages (file_data not a base64 data URL)');
    expect(
      uncarriedField('openai', 'anthropic', {
        ...chat,
        messages: [{ role: 'user', content: [{ type: 'video_url', video_url: { url: 'https://x/v.mp4' } }] }],
      }),
    ).toBe('messages (content part "video_url")');

    const fileData = (mimeType: string, fileUri: string) => ({
      contents: [{ role: 'user', parts: [{ fileData: { mimeType, fileUri } }] }],
    });
    const pdf = fileData('application/pdf', 'https://example.com/a.pdf');
    expect(uncarriedField('gemini', 'openai', pdf)).toBe('contents (fileData "application/pdf")');
    expect(uncarriedField('gemini', 'anthropic', pdf)).toBeNull();
    expect(uncarriedField('gemini', 'openai', fileData('image/png', 'https://example.com/a.png'))).toBeNull();
    expect(uncarriedField('gemini', 'anthropic', fileData('image/png', 'gs://b/a.png'))).toBe(
      'contents (fileData not http(s))',
    );
    expect(
      uncarriedField(
        'gemini',
        'openai',
        fileData('image/png', 'https://generativelanguage.googleapis.com/v1beta/files/abc'),
      ),
    ).toBe('contents (fileData from the Gemini Files API)');
    expect(
      uncarriedField('gemini', 'openai', {
        contents: [{ role: 'user', parts: [{ file_data: { file_uri: 'https://example.com/v.mp4' } }] }],
      }),
    ).toBe('contents (fileData "video/mp4")');
    expect(
      uncarriedField('gemini', 'openai', {
        contents: [{ role: 'model', parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] }],
      }),
    ).toBe('contents (inlineData in a model turn)');
    expect(
      uncarriedField('gemini', 'anthropic', {
        systemInstruction: {
          parts: [{ text: 'a' }, { inlineData: { mimeType: 'image/png', data: 'AA==' } }],
        },
      }),
    ).toBe('systemInstruction (inlineData part)');

    const toolResult = (inner: Json) => ({
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [inner] }] }],
    });
    expect(
      uncarriedField(
        'anthropic',
        'openai',
        toolResult({ type: 'search_result', source: 'x', title: 't', content: [] }),
      ),
    ).toBe('messages (tool_result block "search_result")');
    expect(
      uncarriedField(
        'anthropic',
        'gemini',
        toolResult({ type: 'image', source: { type: 'file', file_id: 'f' } }),
      ),
    ).toBe('messages (tool_result image source "file")');
    expect(
      uncarriedField(
        'anthropic',
        'openai',
        toolResult({
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' },
        }),
      ),
    ).toBeNull();
    expect(
      uncarriedField('anthropic', 'gemini', {
        messages: [
          { role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'ftp://x/a.png' } }] },
        ],
      }),
    ).toBe('messages (image url not http(s))');

    const input = (content: Json[], role = 'user') => ({ input: [{ role, content }] });
    expect(
      uncarriedField('responses', 'anthropic', input([{ type: 'input_image', image_url: 'file-abc' }])),
    ).toBe('input (input_image not an http(s) or base64 data URL)');
    expect(
      uncarriedField('responses', 'openai', input([{ type: 'input_image', image_url: 'file-abc' }])),
    ).toBeNull();
    expect(
      uncarriedField(
        'responses',
        'gemini',
        input([{ type: 'input_file', file_data: 'JVBERi0x', filename: 'a.pdf' }]),
      ),
    ).toBe('input (input_file data not a base64 data URL)');
    expect(
      uncarriedField(
        'responses',
        'openai',
        input([{ type: 'input_image', image_url: 'https://x/a.png' }], 'developer'),
      ),
    ).toBe('input (input_image in a developer message)');
    expect(
      uncarriedField('responses', 'gemini', {
        input: [
          {
            type: 'function_call_output',
            call_id: 'c',
            output: [{ type: 'input_image', image_url: 'https://x/a.png' }],
          },
        ],
      }),
    ).toBe('input (function_call_output with input_image)');
  });

  it('finds Gemini fields in either spelling', () => {
    expect(uncarriedField('gemini', 'anthropic', { generation_config: { candidate_count: 2 } })).toBe(
      'generationConfig.candidateCount',
    );
    expect(droppedFields('gemini', 'openai', { generation_config: { top_k: 40 } })).toEqual([
      'generationConfig.topK',
    ]);
    expect(uncarriedField('gemini', 'openai', { generationConfig: { topK: 40 } })).toBeNull();
  });

  it('leaves fields the inbound format does not have to the converter (left out)', () => {
    expect(uncarriedField('openai', 'anthropic', { ...chat, some_vendor_flag: true })).toBeNull();
  });
});
