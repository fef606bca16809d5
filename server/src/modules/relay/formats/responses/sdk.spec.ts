/**
 * The official openai client consumes what the converters produce: a tiny HTTP server plays a
 * gateway whose upstream speaks chat completions, converting the client's Responses request to chat
 * and a canned chat answer back to Responses (JSON and SSE).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import type { JsonMap } from '../json';
import type { JsonObject } from '../../types';
import { OpenAIToResponsesStream, openAIToResponsesResponse, responsesToOpenAIRequest } from './index';

const usage = {
  prompt_tokens: 12,
  completion_tokens: 8,
  total_tokens: 20,
  prompt_tokens_details: { cached_tokens: 3 },
  completion_tokens_details: { reasoning_tokens: 2 },
};

function lastUserText(chat: JsonObject): string {
  const messages = chat.messages as { role: string; content: unknown }[];
  const user = messages.filter((m) => m.role === 'user').pop();
  return typeof user?.content === 'string' ? user.content : '';
}

/** The canned upstream stream: the echoed text in two deltas, or a tool call when tools were given. */
function chatChunks(chat: JsonObject): JsonObject[] {
  const chunk = (delta: JsonMap, finish: string | null = null): JsonObject => ({
    id: 'chatcmpl-sdk',
    object: 'chat.completion.chunk',
    created: 1,
    model: chat.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const body: JsonObject[] = chat.tools
    ? [
        chunk({
          tool_calls: [
            { index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }),
        chunk({}, 'tool_calls'),
      ]
    : [
        chunk({ reasoning_content: 'thinking' }),
        chunk({ content: 'echo: ' }),
        chunk({ content: lastUserText(chat) }),
        chunk({}, 'stop'),
      ];
  return [chunk({ role: 'assistant', content: '' }), ...body, { id: 'chatcmpl-sdk', choices: [], usage }];
}

async function readJson(req: IncomingMessage): Promise<JsonObject> {
  let text = '';
  for await (const part of req) text += String(part);
  return JSON.parse(text) as JsonObject;
}

describe('openai SDK against converted Responses output', () => {
  let server: Server;
  let client: OpenAI;
  const seen: JsonObject[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      void readJson(req).then((body) => {
        const chat = responsesToOpenAIRequest(body);
        seen.push(chat);
        if (chat.stream === true) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          const conv = new OpenAIToResponsesStream({
            model: chat.model as string,
            id: 'resp_sdk',
            createdAt: 1,
          });
          const events = [...chatChunks(chat).flatMap((c) => conv.push(c)), ...conv.end()];
          for (const e of events) res.write(`event: ${e.event}\ndata: ${e.data}\n\n`);
          res.end();
          return;
        }
        const completion: JsonObject = {
          id: 'chatcmpl-sdk',
          object: 'chat.completion',
          created: 1,
          model: chat.model,
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: `echo: ${lastUserText(chat)}`,
                reasoning_content: 'thinking',
              },
              finish_reason: 'stop',
            },
          ],
          usage,
        };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(openAIToResponsesResponse(completion, { id: 'resp_sdk', createdAt: 1 })));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new OpenAI({ apiKey: 'test-key', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const expectedUsage = {
    input_tokens: 12,
    input_tokens_details: { cached_tokens: 3, cache_write_tokens: 0 },
    output_tokens: 8,
    output_tokens_details: { reasoning_tokens: 2 },
    total_tokens: 20,
  };

  it('reads a non-stream response', async () => {
    const response = await client.responses.create({
      model: 'gpt-4o',
      instructions: 'Be brief.',
      input: 'hello',
    });
    expect(response.id).toBe('resp_sdk');
    expect(response.output_text).toBe('echo: hello');
    expect(response.usage).toEqual(expectedUsage);
    expect(response.output.map((o) => o.type)).toEqual(['reasoning', 'message']);
    expect(seen[seen.length - 1].messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hello' },
    ]);
  });

  it('reads a stream through responses.stream()', async () => {
    const stream = client.responses.stream({
      model: 'gpt-4o',
      input: [{ role: 'user', content: 'streamed' }],
    });
    const deltas: string[] = [];
    const snapshots: string[] = [];
    stream.on('response.output_text.delta', (event) => {
      deltas.push(event.delta);
      snapshots.push(event.snapshot);
    });
    const final = await stream.finalResponse();
    expect(deltas).toEqual(['echo: ', 'streamed']);
    expect(snapshots).toEqual(['echo: ', 'echo: streamed']);
    // finalResponse() only adds output_text for parseable requests; read the message item instead.
    expect(final.output.find((o) => o.type === 'message')).toMatchObject({
      content: [{ type: 'output_text', text: 'echo: streamed' }],
    });
    expect(final.status).toBe('completed');
    expect(final.usage).toEqual(expectedUsage);
    expect(seen[seen.length - 1].stream_options).toEqual({ include_usage: true });
  });

  it('reads a stream through create({stream: true})', async () => {
    const stream = await client.responses.create({ model: 'gpt-4o', input: 'raw', stream: true });
    const types: string[] = [];
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    let lastSeq = -1;
    for await (const event of stream) {
      types.push(event.type);
      expect(event.sequence_number).toBe(lastSeq + 1);
      lastSeq = event.sequence_number;
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.output_text.done');
    expect(text).toBe('echo: raw');
    expect(completed?.usage).toEqual(expectedUsage);
    expect(completed?.output.find((o) => o.type === 'message')).toMatchObject({
      content: [{ type: 'output_text', text: 'echo: raw' }],
    });
  });

  it('streams function calls with their arguments', async () => {
    const stream = client.responses.stream({
      model: 'gpt-4o',
      input: 'find x',
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' }, strict: false }],
    });
    const argSnapshots: string[] = [];
    stream.on('response.function_call_arguments.delta', (event) => argSnapshots.push(event.snapshot));
    const final = await stream.finalResponse();
    expect(argSnapshots).toEqual(['{"q":', '{"q":"x"}']);
    expect(final.output).toEqual([
      expect.objectContaining({
        type: 'function_call',
        call_id: 'call_1',
        name: 'lookup',
        arguments: '{"q":"x"}',
      }),
    ]);
    expect(seen[seen.length - 1].tools).toEqual([
      { type: 'function', function: { name: 'lookup', parameters: { type: 'object' }, strict: false } },
    ]);
  });
});
