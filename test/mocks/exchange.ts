import type { MockAccount } from './accounts';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Directives, errorOf } from './directives';

/** Fixed `created` timestamp of every answer (deterministic output). */
export const CREATED = 1_700_000_000;

export interface MultipartFile {
  field: string;
  filename: string;
  size: number;
  type: string;
  sha256: string;
}

export interface MultipartRecord {
  /** Text fields by name (the last value when a name repeats). */
  fields: Record<string, string>;
  /** Every file part, in order. */
  files: MultipartFile[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or null when the body is not JSON; tests read arbitrary fields of it. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  rawBody: Buffer;
  multipart?: MultipartRecord;
  /** The credential the request carried (the one the provider family reads), if any. */
  credential: string | null;
  /** True when the client went away before the answer ended. */
  aborted: boolean;
}

/** What a route handler gets. */
export interface Ctx {
  ex: Exchange;
  record: RecordedRequest;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** 1-based number of the request since start or reset(), used in ids. */
  n: number;
  /** Model named by the path (Azure deployment, Gemini model), else undefined. */
  pathModel?: string;
  baseUrl: string;
  models: readonly string[];
  /** The account the balance endpoints describe. */
  account: MockAccount;
  /** Signing secrets and issued access tokens (private-format providers). */
  auth: MockAuth;
  /** The error format of the route, when it differs from the handler's own (Cloudflare's OpenAI endpoints). */
  writeError?: ErrorWriter;
}

/**
 * What the mock knows to check credentials with. `signingKeys` maps a key id to its secret: an AWS
 * access key id to its secret access key (SigV4), a Tencent SecretId to its SecretKey (TC3), a Zhipu
 * key id to its secret (HS256 JWT), a Baidu API key to its secret key, and a Google service account's
 * client_email to its public key in PEM (RS256 JWT). A signature by a key id not listed there is
 * checked for its form only. `issued` maps the access tokens the mock's token endpoints handed out
 * (Google OAuth, Baidu) to who they were issued to.
 */
export interface MockAuth {
  signingKeys: Record<string, string>;
  issued: Map<string, string>;
}

/** Message of an error answer when the test gave none. */
export function defaultErrorMessage(status: number): string {
  const messages: Record<number, string> = {
    400: 'Invalid request.',
    401: 'Incorrect API key provided',
    403: 'You are not allowed to use this resource.',
    404: 'The requested resource was not found.',
    429: 'Rate limit reached for requests.',
    500: 'The server had an error while processing your request.',
    502: 'Bad gateway.',
    503: 'The engine is currently overloaded, please try again later.',
    504: 'The upstream timed out.',
    529: 'Overloaded',
  };
  return messages[status] ?? `Mock upstream error ${status}.`;
}

/** Writes an error answer in some provider's format. */
export type ErrorWriter = (ex: Exchange, status: number, message?: string) => void;

/**
 * One request/answer pair. Knows whether the mock itself finished the answer (end or deliberate cut),
 * so that a close before that is recorded as the client going away.
 */
export class Exchange {
  /** Resolves when the connection of this answer is closed, for whatever reason. */
  readonly closed: Promise<void>;
  private settled = false;
  private flushed: Promise<void> = Promise.resolve();

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    /** Spaces per level in JSON answers (0: compact, as providers send them). */
    private readonly indent = 0,
  ) {
    this.closed = new Promise((resolve) => res.once('close', () => resolve()));
    res.on('error', () => undefined);
  }

  /** True once the mock ended or cut the answer itself. */
  get finished(): boolean {
    return this.settled;
  }

  /** True when nothing more can be written. */
  get gone(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  send(status: number, body: string | Buffer, headers: OutgoingHttpHeaders): void {
    if (this.gone) return;
    this.settled = true;
    this.res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
    this.res.end(body);
  }

  json(status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
    this.send(status, JSON.stringify(body, null, this.indent || undefined), {
      'content-type': 'application/json',
      ...headers,
    });
  }

  /** Starts a streamed (chunked) answer. */
  begin(contentType: string, headers: OutgoingHttpHeaders = {}): void {
    if (this.gone) return;
    this.res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache', ...headers });
    this.res.flushHeaders();
  }

  write(data: string | Buffer): void {
    if (this.gone) return;
    this.flushed = new Promise((resolve) => this.res.write(data, () => resolve()));
  }

  end(): void {
    if (this.gone) return;
    this.settled = true;
    this.res.end();
  }

  /** Destroys the connection abruptly, after what was written so far reached the socket. */
  async cut(): Promise<void> {
    this.settled = true;
    await this.flushed;
    this.req.socket.destroy();
  }

  /** Waits `ms` milliseconds, or less when the connection closes meanwhile. */
  async pause(ms: number | undefined): Promise<void> {
    if (!ms || this.gone) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, ms))), this.closed]);
    clearTimeout(timer);
  }

  /**
   * Applies [[hang]] and the error directives. Returns true when the request is dealt with
   * (answered with an error, or left hanging until the client went away).
   */
  async gate(d: Directives, writeError: ErrorWriter): Promise<boolean> {
    if (d.hang) {
      await this.closed;
      return true;
    }
    const error = errorOf(d);
    if (!error) return false;
    await this.pause(d.slow);
    writeError(this, error.status, error.message);
    return true;
  }

  /** Applies [[slow]] and [[cut]] before a non-stream answer. Returns false when no answer should follow. */
  async beforeAnswer(d: Directives): Promise<boolean> {
    await this.pause(d.slow);
    if (d.cut !== undefined) {
      await this.cut();
      return false;
    }
    return !this.gone;
  }

  /**
   * Streams `pieces` through `write`, honouring [[slow]] (before each piece) and [[cut]] (after that
   * many pieces). Returns true when every piece went out and the stream may be finished.
   */
  async stream<T>(
    pieces: readonly T[],
    d: Directives,
    write: (piece: T, index: number) => void,
  ): Promise<boolean> {
    for (let i = 0; i < pieces.length; i++) {
      if (d.cut === i) {
        await this.cut();
        return false;
      }
      await this.pause(d.slow);
      if (this.gone) return false;
      write(pieces[i], i);
    }
    if (d.cut !== undefined) {
      await this.cut();
      return false;
    }
    return !this.gone;
  }
}

/** A `data:`-only server-sent event. */
export function sseData(data: unknown, eol = '\n'): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}${eol}${eol}`;
}

/** A server-sent event with an `event:` line. */
export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
