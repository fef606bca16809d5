/**
 * The official Anthropic SDK parses what the OpenAI → Anthropic converters produce: a tiny HTTP
 * server serves converted answers and the SDK reads them as it would read Anthropic's API.
 */
import Anthropic from '@anthropic-ai/sdk';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonObject, SseEvent } from '../../types';
import type { JsonMap } from './shared';
import { openAIToAnthropicResponse } from './response';
import { AnthropicToOpenAIStream, OpenAIToAnthropicStream } from './stream';

const completion: JsonObject = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'Checking the weather.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      finish_reason: 'tool_calls',
    },
  ],
  usage: {
    prompt_tokens: 50,
    completion_tokens: 12,
    total_tokens: 62,
    prompt_tokens_details: { cached_tokens: 30 },
  },
};

const chunk = (delta: JsonMap, finish: string | null = null): JsonObject => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const chunks: JsonObject[] = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ reasoning_content: 'Rome is in Italy.' }),
  chunk({ content: 'Checking ' }),
  chunk({ content: 'the weather.' }),
  chunk({
    tool_calls: [
      { index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } },
    ],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"Rome"}' } }] }),
  chunk({}, 'tool_calls'),
  { id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage: completion.usage },
];

function convertedEvents(): SseEvent[] {
  const converter = new OpenAIToAnthropicStream({ model: 'claude-sonnet-4', id: 'msg_1' });
  return [...chunks.flatMap((c) => converter.push(c)), ...converter.end()];
}

/** Anthropic events → hub chunks → Anthropic events again. */
function roundTripEvents(): SseEvent[] {
  const toHub = new AnthropicToOpenAIStream({ created: 1 });
  const back = new OpenAIToAnthropicStream({ model: 'claude-sonnet-4', id: 'msg_2' });
  const hub = [...convertedEvents().flatMap((e) => toHub.push(e)), ...toHub.end()];
  return [...hub.flatMap((c) => back.push(c)), ...back.end()];
}

async function readBody(req: IncomingMessage): Promise<JsonObject> {
  let text = '';
  for await (const piece of req) text += String(piece);
  return JSON.parse(text) as JsonObject;
}

describe('Anthropic SDK reads the converted answers', () => {
  let server: Server;
  let client: Anthropic;
  let events: () => SseEvent[] = convertedEvents;

  beforeAll(async () => {
    server = createServer((req, res) => {
      void readBody(req).then((body) => {
        if (body.stream === true) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          for (const e of events()) res.write(`event: ${e.event}\ndata: ${e.data}\n\n`);
          res.end();
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(openAIToAnthropicResponse(completion)));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new Anthropic({ baseURL: `http://127.0.0.1:${port}`, apiKey: 'x', maxRetries: 0 });
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const params = {
    model: 'claude-sonnet-4',
    max_tokens: 100,
    messages: [{ role: 'user' as const, content: 'Weather in Rome?' }],
  };

  it('non-stream: messages.create', async () => {
    const message = await client.messages.create(params);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'text', text: 'Checking the weather.' },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Rome' } },
    ]);
    expect(message.usage).toMatchObject({ input_tokens: 20, output_tokens: 12, cache_read_input_tokens: 30 });
  });

  it.each([
    ['OpenAI chunks → Anthropic events', convertedEvents],
    ['Anthropic events → hub → Anthropic events', roundTripEvents],
  ])('stream: messages.stream finalMessage (%s)', async (_name, source) => {
    events = source;
    const texts: string[] = [];
    const stream = client.messages.stream(params).on('text', (text) => texts.push(text));
    const message = await stream.finalMessage();
    expect(texts.join('')).toBe('Checking the weather.');
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Rome is in Italy.', signature: '' },
      { type: 'text', text: 'Checking the weather.' },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Rome' } },
    ]);
    expect(message.usage).toMatchObject({ input_tokens: 20, output_tokens: 12, cache_read_input_tokens: 30 });
  });

  it('stream: messages.create({ stream: true }) yields the raw events in order', async () => {
    events = convertedEvents;
    const types: string[] = [];
    const stream = await client.messages.create({ ...params, stream: true });
    for await (const event of stream) types.push(event.type);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
  });
});
