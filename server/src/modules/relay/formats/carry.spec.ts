/**
 * The carry tables against the facts: every request field the official SDKs declare (OpenAI chat
 * and Responses, Anthropic Messages with its betas, @google/genai's generation config) has a fate on
 * every channel format its format converts to, and docs/agents.md shows the tables as they are.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { WireFormat } from '../types';
import { CARRY_TABLES, carryTables, CONVERSIONS, uncarriedField } from './carry';

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
    expect(
      uncarriedField('openai', 'anthropic', { ...chat, frequency_penalty: 0, n: 1, logprobs: false }),
    ).toBeNull();
    expect(uncarriedField('openai', 'anthropic', { ...chat, frequency_penalty: 0.5 })).toBe(
      'frequency_penalty',
    );
    expect(uncarriedField('openai', 'gemini', { ...chat, frequency_penalty: 0.5 })).toBeNull();
    expect(uncarriedField('openai', 'anthropic', { ...chat, logit_bias: {} })).toBeNull();
    expect(uncarriedField('openai', 'gemini', { ...chat, logit_bias: { '50256': -100 } })).toBe('logit_bias');
    expect(uncarriedField('openai', 'anthropic', { ...chat, verbosity: 'medium' })).toBeNull();
    expect(uncarriedField('openai', 'gemini', { ...chat, verbosity: 'low' })).toBe('verbosity');
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

  it('finds Gemini fields in either spelling', () => {
    expect(uncarriedField('gemini', 'openai', { generation_config: { top_k: 40 } })).toBe(
      'generationConfig.topK',
    );
    expect(uncarriedField('gemini', 'anthropic', { generationConfig: { topK: 40 } })).toBeNull();
  });

  it('leaves fields the inbound format does not have to the converter (left out)', () => {
    expect(uncarriedField('openai', 'anthropic', { ...chat, some_vendor_flag: true })).toBeNull();
  });
});
