/**
 * An upstream that misbehaves on request, in the three wire formats (OpenAI chat, Anthropic messages,
 * Gemini generateContent). The fault is named in the request body as `fault:<name>`; without one the
 * answer is a normal one. Every fault is something real providers and proxies do: stall after the
 * headers, cut the answer short, report an error inside a 200, send undecodable events, trickle bytes,
 * refuse the gateway's key, or send a very large answer.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FaultFormat = 'openai' | 'anthropic' | 'gemini';

export const FAULT_USAGE = { prompt: 12, completion: 3 };

interface Seen {
  path: string;
  fault: string;
}

export class FaultUpstream {
  readonly seen: Seen[] = [];
  private readonly sockets = new Set<import('node:net').Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FaultUpstream> {
    let self: FaultUpstream | null = null;
    const server = createServer((req, res) => void self!.handle(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const up = new FaultUpstream(server, `http://127.0.0.1:${port}`);
    self = up;
    server.on('connection', (s) => {
      up.sockets.add(s);
      s.on('close', () => up.sockets.delete(s));
    });
    return up;
  }

  private big: Buffer | null = null;

  /** Builds the ~40 MB answer of `fault:big` now (so that building it is not counted with serving it). */
  prepareBig(): void {
    this.big ??= Buffer.from(
      JSON.stringify(answer('openai', 'gpt-4o-2024-08-06', 'x'.repeat(40 * 1024 * 1024))),
    );
  }

  count(fault: string): number {
    return this.seen.filter((s) => s.fault === fault).length;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const fault = /fault:([a-z0-9-]+)/.exec(body)?.[1] ?? 'none';
    const path = (req.url ?? '/').split('?')[0];
    this.seen.push({ path, fault });
    const format: FaultFormat = path.endsWith('/messages')
      ? 'anthropic'
      : path.includes(':')
        ? 'gemini'
        : 'openai';
    const stream =
      format === 'gemini' ? path.includes(':streamGenerateContent') : /"stream"\s*:\s*true/.test(body);
    const model = /"model"\s*:\s*"([^"]+)"/.exec(body)?.[1] ?? 'model';
    res.on('error', () => undefined);

    switch (fault) {
      case 'stall-body': {
        // Headers and the start of a JSON answer, then nothing, ever.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"id":"x",');
        return;
      }
      case 'reset-body': {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4000' });
        res.write('{"id":"chatcmpl-cut","object":"chat.completion","choices":[');
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      case 'error-200':
        return json(res, 200, errorBody(format, 503, 'the upstream is overloaded right now'));
      case 'stream-error-first':
        return sse(res, format, [errorEvent(format, 'overloaded, try again later')], true);
      case 'stream-error-late':
        return sse(
          res,
          format,
          [...content(format, model, ['Hel', 'lo']), errorEvent(format, 'upstream fell over')],
          false,
        );
      case 'malformed-sse':
        return sse(
          res,
          format,
          [...content(format, model, ['Hello', ' there']), ...end(format, model)],
          true,
          true,
        );
      case 'drip': {
        // SSE headers, then one byte every 200 ms that never makes an event.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const timer = setInterval(() => res.write(':'), 200);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'silent-stream': {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
        return;
      }
      case 'auth-401': {
        const key = String(
          req.headers.authorization ?? req.headers['x-api-key'] ?? req.headers['x-goog-api-key'] ?? '',
        );
        return json(
          res,
          401,
          errorBody(format, 401, `Incorrect API key provided: ${key.replace(/^Bearer /, '')}`),
        );
      }
      case 'echo-key': {
        const key = String(req.headers.authorization ?? req.headers['x-api-key'] ?? '').replace(
          /^Bearer /,
          '',
        );
        return json(res, 500, errorBody(format, 500, `internal error while using credential ${key}`));
      }
      case 'big': {
        // A ~40 MB answer: one long message, the usage at the end.
        this.prepareBig();
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': this.big!.length });
        res.end(this.big);
        return;
      }
    }
    if (stream)
      return sse(res, format, [...content(format, model, ['Hello', ' there']), ...end(format, model)], true);
    return json(res, 200, answer(format, model, 'Hello there'));
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

interface Ev {
  event?: string;
  data: string;
}

function sse(res: ServerResponse, format: FaultFormat, events: Ev[], finish: boolean, garbage = false): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let out = '';
  events.forEach((e, i) => {
    if (garbage && i === 1) out += 'data: {"id": "broken", "choices": [\n\n';
    out += (e.event ? `event: ${e.event}\n` : '') + `data: ${e.data}\n\n`;
  });
  if (finish && format === 'openai') out += 'data: [DONE]\n\n';
  res.end(out);
}

function errorBody(format: FaultFormat, status: number, message: string): unknown {
  if (format === 'anthropic')
    return {
      type: 'error',
      error: { type: status === 529 || status === 503 ? 'overloaded_error' : 'api_error', message },
    };
  if (format === 'gemini')
    return { error: { code: status, message, status: status === 401 ? 'UNAUTHENTICATED' : 'UNAVAILABLE' } };
  return {
    error: {
      message,
      type: status === 401 ? 'invalid_request_error' : 'server_error',
      param: null,
      code: status === 401 ? 'invalid_api_key' : null,
    },
  };
}

function errorEvent(format: FaultFormat, message: string): Ev {
  if (format === 'anthropic')
    return {
      event: 'error',
      data: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message } }),
    };
  return { data: JSON.stringify(errorBody(format, 503, message)) };
}

function answer(format: FaultFormat, model: string, text: string): unknown {
  const u = FAULT_USAGE;
  if (format === 'anthropic')
    return {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: u.prompt, output_tokens: u.completion },
    };
  if (format === 'gemini')
    return {
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: u.prompt,
        candidatesTokenCount: u.completion,
        totalTokenCount: u.prompt + u.completion,
      },
      modelVersion: model,
    };
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: u.prompt,
      completion_tokens: u.completion,
      total_tokens: u.prompt + u.completion,
    },
  };
}

function content(format: FaultFormat, model: string, pieces: string[]): Ev[] {
  if (format === 'anthropic')
    return [
      {
        event: 'message_start',
        data: JSON.stringify({
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            usage: { input_tokens: FAULT_USAGE.prompt, output_tokens: 1 },
          },
        }),
      },
      {
        event: 'content_block_start',
        data: JSON.stringify({
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'text', text: '' },
        }),
      },
      ...pieces.map((p) => ({
        event: 'content_block_delta',
        data: JSON.stringify({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: p },
        }),
      })),
    ];
  if (format === 'gemini')
    return pieces.map((p) => ({
      data: JSON.stringify({
        candidates: [{ content: { role: 'model', parts: [{ text: p }] }, index: 0 }],
        modelVersion: model,
      }),
    }));
  return pieces.map((p, i) => ({
    data: JSON.stringify({
      id: 'chatcmpl-s',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model,
      choices: [
        {
          index: 0,
          delta: i === 0 ? { role: 'assistant', content: p } : { content: p },
          finish_reason: null,
        },
      ],
    }),
  }));
}

function end(format: FaultFormat, model: string): Ev[] {
  const u = FAULT_USAGE;
  if (format === 'anthropic')
    return [
      { event: 'content_block_stop', data: JSON.stringify({ type: 'content_block_stop', index: 0 }) },
      {
        event: 'message_delta',
        data: JSON.stringify({
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: u.completion },
        }),
      },
      { event: 'message_stop', data: JSON.stringify({ type: 'message_stop' }) },
    ];
  if (format === 'gemini')
    return [
      {
        data: JSON.stringify({
          candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: {
            promptTokenCount: u.prompt,
            candidatesTokenCount: u.completion,
            totalTokenCount: u.prompt + u.completion,
          },
          modelVersion: model,
        }),
      },
    ];
  return [
    {
      data: JSON.stringify({
        id: 'chatcmpl-s',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model,
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
      }),
    },
    {
      data: JSON.stringify({
        id: 'chatcmpl-s',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model,
        choices: [],
        usage: {
          prompt_tokens: u.prompt,
          completion_tokens: u.completion,
          total_tokens: u.prompt + u.completion,
        },
      }),
    },
  ];
}
