/**
 * A mock OpenAI Realtime upstream: a WebSocket server on 127.0.0.1:0 serving OpenAI's
 * `/v1/realtime?model=` (Authorization: Bearer + OpenAI-Beta: realtime=v1) and Azure's
 * `/openai/realtime?api-version=&deployment=` (api-key). Handshakes with a wrong key get a 401 with
 * OpenAI's error JSON; a model (or deployment) named `error-<status>` gets that status.
 *
 * On connect it sends `session.created`. Client events:
 * - `response.create`: `response.created`, transcript and text deltas, one audio delta, then
 *   `response.done` with usage (`response.metadata.mock_usage`, a JSON string of MockRealtimeUsage,
 *   overrides the default);
 * - `session.update`: `session.updated`;
 * - `mock.close` {code, reason}: the server closes the socket with them;
 * - `mock.flood` {mb}: the server sends that many 1 MB binary frames at once;
 * - binary frames are echoed back as binary.
 * Every connection is recorded (path, query, headers, events received, how it was closed).
 */
import { createServer, IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';

export interface MockRealtimeUsage {
  textIn: number;
  audioIn: number;
  cached: number;
  cachedAudio: number;
  textOut: number;
  audioOut: number;
}

export const DEFAULT_REALTIME_USAGE: MockRealtimeUsage = {
  textIn: 40,
  audioIn: 60,
  cached: 20,
  cachedAudio: 0,
  textOut: 10,
  audioOut: 40,
};

/** The transcript and text the mock streams for every response. */
export const TRANSCRIPT_PIECES = ['Hello ', 'from the ', 'realtime mock.'];
export const TEXT_PIECES = ['Plain ', 'text.'];

export interface MockRealtimeConnection {
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Client text events, parsed. */
  events: Array<Record<string, unknown>>;
  /** Client binary frames. */
  binary: Buffer[];
  ws: WebSocket;
  /** Resolves with how the socket closed (as seen by the mock). */
  closed: Promise<{ code: number; reason: string }>;
}

export function usageBody(u: MockRealtimeUsage): Record<string, unknown> {
  return {
    total_tokens: u.textIn + u.audioIn + u.textOut + u.audioOut,
    input_tokens: u.textIn + u.audioIn,
    output_tokens: u.textOut + u.audioOut,
    input_token_details: {
      text_tokens: u.textIn,
      audio_tokens: u.audioIn,
      cached_tokens: u.cached,
      cached_tokens_details: { text_tokens: u.cached - u.cachedAudio, audio_tokens: u.cachedAudio },
    },
    output_token_details: { text_tokens: u.textOut, audio_tokens: u.audioOut },
  };
}

export class MockRealtime {
  readonly connections: MockRealtimeConnection[] = [];
  /** Handshakes refused (wrong key, unknown path, error-<status> models). */
  refused = 0;
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  private seq = 0;

  private constructor(
    private readonly server: Server,
    readonly key: string,
    readonly azureKey: string,
  ) {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(req, socket, head),
    );
  }

  static async start(opts: { key?: string; azureKey?: string } = {}): Promise<MockRealtime> {
    const server = createServer((_req, res) => {
      res.statusCode = 426;
      res.end('WebSocket only');
    });
    const mock = new MockRealtime(server, opts.key ?? 'sk-upstream-key', opts.azureKey ?? 'az-key');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return mock;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get last(): MockRealtimeConnection | undefined {
    return this.connections.at(-1);
  }

  async close(): Promise<void> {
    for (const c of this.connections) c.ws.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private refuse(socket: Duplex, status: number, message: string, code: string | null): void {
    this.refused++;
    const body = JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code } });
    socket.end(
      `HTTP/1.1 ${status} Refused\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://mock');
    const azure = url.pathname === '/openai/realtime';
    let model: string | null;
    if (url.pathname === '/v1/realtime') {
      if (req.headers.authorization !== `Bearer ${this.key}`)
        return this.refuse(socket, 401, 'Incorrect API key provided.', 'invalid_api_key');
      if (req.headers['openai-beta'] !== 'realtime=v1')
        return this.refuse(socket, 400, 'Missing OpenAI-Beta: realtime=v1', 'missing_beta_header');
      model = url.searchParams.get('model');
    } else if (azure) {
      if (req.headers['api-key'] !== this.azureKey)
        return this.refuse(socket, 401, 'Access denied due to invalid subscription key.', '401');
      if (!url.searchParams.get('api-version')) return this.refuse(socket, 404, 'Resource not found', '404');
      model = url.searchParams.get('deployment');
    } else return this.refuse(socket, 404, `Unknown path ${url.pathname}`, 'not_found');
    if (!model) return this.refuse(socket, 400, 'Missing model', 'missing_model');
    const forced = /^error-(\d{3})$/.exec(model);
    if (forced) return this.refuse(socket, Number(forced[1]), `Forced error ${forced[1]}`, 'forced');

    this.wss.handleUpgrade(req, socket, head, (ws) => {
      let closedWith: (v: { code: number; reason: string }) => void = () => undefined;
      const conn: MockRealtimeConnection = {
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        events: [],
        binary: [],
        ws,
        closed: new Promise((resolve) => (closedWith = resolve)),
      };
      this.connections.push(conn);
      ws.on('close', (code, reason) => closedWith({ code, reason: reason.toString('utf8') }));
      ws.on('error', () => undefined);
      ws.on('message', (data, isBinary) => this.onMessage(conn, data as Buffer, isBinary, model));
      this.send(ws, {
        type: 'session.created',
        session: {
          id: `sess_${this.seq}`,
          object: 'realtime.session',
          model,
          modalities: ['text', 'audio'],
          voice: 'alloy',
        },
      });
    });
  }

  private send(ws: WebSocket, event: Record<string, unknown>): void {
    if (ws.readyState === WebSocket.OPEN)
      ws.send(JSON.stringify({ event_id: `event_${++this.seq}`, ...event }));
  }

  private onMessage(conn: MockRealtimeConnection, data: Buffer, isBinary: boolean, model: string): void {
    const { ws } = conn;
    if (isBinary) {
      conn.binary.push(data);
      ws.send(data, { binary: true });
      return;
    }
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
    } catch {
      this.send(ws, {
        type: 'error',
        error: { type: 'invalid_request_error', code: 'invalid_json', message: 'Invalid JSON' },
      });
      return;
    }
    conn.events.push(event);
    switch (event.type) {
      case 'session.update':
        this.send(ws, { type: 'session.updated', session: { model, ...(event.session as object) } });
        return;
      case 'mock.close':
        ws.close(
          typeof event.code === 'number' ? event.code : 1000,
          typeof event.reason === 'string' ? event.reason : '',
        );
        return;
      case 'response.create':
        this.respond(ws, event);
        return;
      case 'mock.flood': {
        const frame = Buffer.alloc(1024 * 1024, 7);
        const mb = typeof event.mb === 'number' ? event.mb : 1;
        for (let i = 0; i < mb && ws.readyState === WebSocket.OPEN; i++) ws.send(frame, { binary: true });
        return;
      }
      default:
        return;
    }
  }

  private respond(ws: WebSocket, event: Record<string, unknown>): void {
    const req = (event.response ?? {}) as { metadata?: Record<string, string> };
    let usage = DEFAULT_REALTIME_USAGE;
    if (req.metadata?.mock_usage)
      usage = {
        ...DEFAULT_REALTIME_USAGE,
        ...(JSON.parse(req.metadata.mock_usage) as Partial<MockRealtimeUsage>),
      };
    const id = `resp_${++this.seq}`;
    const response = { id, object: 'realtime.response', status: 'in_progress', output: [], usage: null };
    this.send(ws, { type: 'response.created', response });
    for (const delta of TRANSCRIPT_PIECES)
      this.send(ws, {
        type: 'response.audio_transcript.delta',
        response_id: id,
        item_id: `item_${id}`,
        output_index: 0,
        content_index: 0,
        delta,
      });
    this.send(ws, {
      type: 'response.audio.delta',
      response_id: id,
      item_id: `item_${id}`,
      output_index: 0,
      content_index: 0,
      delta: Buffer.alloc(960).toString('base64'),
    });
    for (const delta of TEXT_PIECES)
      this.send(ws, {
        type: 'response.text.delta',
        response_id: id,
        item_id: `item_${id}`,
        output_index: 0,
        content_index: 1,
        delta,
      });
    this.send(ws, {
      type: 'response.done',
      response: {
        ...response,
        status: 'completed',
        output: [
          {
            id: `item_${id}`,
            type: 'message',
            role: 'assistant',
            content: [{ type: 'audio', transcript: TRANSCRIPT_PIECES.join('') }],
          },
        ],
        usage: usageBody(usage),
      },
    });
  }
}
