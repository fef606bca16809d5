/**
 * Content logs of a realtime session: the client's and the upstream's messages, collected while the
 * session is open and stored as one content row when it closes. Only sessions whose token, user or
 * channel stores content create a transcript; other sessions never reach this file.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { CapturedAnswer, ContentCall } from '../../log';

/** Audio payload fields of the realtime events, replaced by their size (base64 audio is not content one reads). */
const AUDIO_FIELDS: Record<string, string> = {
  'input_audio_buffer.append': 'audio',
  'response.audio.delta': 'delta',
  'response.output_audio.delta': 'delta',
};

class Side {
  readonly items: string[] = [];
  private bytes = 0;
  overflow = false;

  constructor(private readonly limit: number) {}

  add(item: string): void {
    if (this.overflow) return;
    const size = Buffer.byteLength(item) + 1;
    if (this.bytes + size > this.limit) {
      this.overflow = true;
      return;
    }
    this.items.push(item);
    this.bytes += size;
  }
}

/** One message as stored: the event JSON (audio payloads replaced by their size), or a note for binary frames. */
export function transcriptItem(data: Buffer, isBinary: boolean): string {
  if (isBinary) return JSON.stringify({ binary: true, bytes: data.length });
  const text = data.toString('utf8');
  let ev: unknown;
  try {
    ev = JSON.parse(text);
  } catch {
    return JSON.stringify(text);
  }
  if (ev && typeof ev === 'object' && !Array.isArray(ev)) {
    const o = ev as Record<string, unknown>;
    const field = typeof o.type === 'string' ? AUDIO_FIELDS[o.type] : undefined;
    if (field && typeof o[field] === 'string') {
      const b64 = o[field];
      o[field] = `[audio: ${Math.floor((b64.length * 3) / 4)} bytes]`;
      return JSON.stringify(o);
    }
  }
  return text;
}

/** The messages of one session, each direction up to `limit` bytes. */
export class SessionTranscript {
  private readonly client: Side;
  private readonly upstream: Side;

  constructor(limit: number) {
    this.client = new Side(limit);
    this.upstream = new Side(limit);
  }

  fromClient(data: Buffer, isBinary: boolean): void {
    this.client.add(transcriptItem(data, isBinary));
  }

  fromUpstream(data: Buffer, isBinary: boolean): void {
    this.upstream.add(transcriptItem(data, isBinary));
  }

  /** The client's messages, as the request (a JSON array of events). */
  request(): unknown[] {
    return JSON.parse(`[${this.client.items.join(',')}]`) as unknown[];
  }

  /** The upstream's messages, as the answer (a JSON array of events). */
  answer(): CapturedAnswer {
    const upstream = this.upstream;
    return { overflow: upstream.overflow, text: () => `[${upstream.items.join(',')}]` };
  }

  /** The stored call: the session's request id and caller, the handshake's headers, the secrets to redact. */
  call(args: {
    requestId: string;
    userId: number;
    startedAt: number;
    headers: IncomingHttpHeaders;
    secrets: string[];
    channelId: number;
  }): ContentCall {
    return {
      requestId: args.requestId,
      userId: args.userId,
      startedAt: args.startedAt,
      format: 'openai',
      mode: 'realtime',
      path: '/v1/realtime',
      stream: true,
      body: this.request(),
      multipart: false,
      headers: args.headers,
      secrets: args.secrets,
      channelId: args.channelId,
    };
  }
}
