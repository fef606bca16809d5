/**
 * Behaviour directives a test embeds in the text of the last user message, e.g.
 * "hi [[status=429]] [[error=slow down]]". See MockUpstream for the full list.
 */
export interface Directives {
  /** Answer with this HTTP error status (>= 400) in the provider's error format. */
  status?: number;
  /** Error message text (status defaults to 500 when only this is given). */
  error?: string;
  /** Exact prompt and completion token counts to report. */
  usage?: [prompt: number, completion: number];
  /** Cache-read and cache-creation token counts to report. */
  cache?: [read: number, write: number];
  /** Of the cache-creation tokens, how many were written for one hour (Anthropic reports the split). */
  cache1h?: number;
  /** Report no usage at all. */
  nousage: boolean;
  reply?: string;
  chunks?: number;
  /** Milliseconds to wait before each stream chunk (and before a non-stream answer). */
  slow?: number;
  /** Destroy the socket after this many content chunks (non-stream: before answering). */
  cut?: number;
  /** Answer with a call of this tool instead of text. */
  tool?: string;
  /** Never answer. */
  hang: boolean;
  /** Dify: answer as an agent app (agent_thought / agent_message events) rather than a chatflow. */
  agent?: boolean;
  /** Dify: end the stream with an `error` event carrying this message instead of message_end. */
  streamError?: string;
}

export const DEFAULT_REPLY = 'Hello from the mock upstream.';
export const DEFAULT_PROMPT_TOKENS = 10;
/** Arguments of every tool call the mock makes, and how they are split across stream deltas. */
export const TOOL_ARGUMENTS = { city: 'Paris' };
export const TOOL_ARGUMENT_PIECES = ['{"city": ', '"Paris"}'];

const DIRECTIVE = /\[\[(\w+)(?:=([^\]]*))?\]\]/g;

function int(value: string | undefined): number | undefined {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) ? n : undefined;
}

function pair(value: string | undefined): [number, number] | undefined {
  const [a, b] = (value ?? '').split(',').map((s) => int(s.trim()));
  return a === undefined || b === undefined ? undefined : [a, b];
}

export function parseDirectives(text: string): Directives {
  const d: Directives = { nousage: false, hang: false };
  for (const [, key, value] of text.matchAll(DIRECTIVE)) {
    switch (key) {
      case 'status':
        d.status = int(value);
        break;
      case 'error':
        d.error = value ?? '';
        break;
      case 'usage':
        d.usage = pair(value);
        break;
      case 'cache':
        d.cache = pair(value);
        break;
      case 'cache1h':
        d.cache1h = int(value);
        break;
      case 'nousage':
        d.nousage = true;
        break;
      case 'reply':
        d.reply = value ?? '';
        break;
      case 'chunks':
        d.chunks = int(value);
        break;
      case 'slow':
        d.slow = int(value);
        break;
      case 'cut':
        d.cut = int(value);
        break;
      case 'tool':
        d.tool = value;
        break;
      case 'hang':
        d.hang = true;
        break;
      case 'streamerror':
        d.streamError = value ?? 'stream failed';
        break;
      case 'agent':
        d.agent = true;
        break;
    }
  }
  return d;
}

/** The error the directives ask for, if any. */
export function errorOf(d: Directives): { status: number; message?: string } | null {
  if (d.status !== undefined && d.status >= 400) return { status: d.status, message: d.error };
  if (d.error !== undefined) return { status: 500, message: d.error };
  return null;
}

/** The reply text cut into stream chunks: one word per chunk, spaces kept ("Hello", " from", ...). */
export function replyPieces(d: Directives): string[] {
  if (d.chunks !== undefined)
    return Array.from({ length: d.chunks }, (_, i) => `${i === 0 ? '' : ' '}w${i + 1}`);
  const text = d.reply ?? DEFAULT_REPLY;
  const pieces = text.match(/\s*\S+/g) ?? [];
  const trailing = /\s*$/.exec(text)?.[0] ?? '';
  if (pieces.length === 0) return text ? [text] : [];
  pieces[pieces.length - 1] += trailing;
  return pieces;
}

/** Token counts to report. `prompt` excludes the cache tokens; each provider adds them its own way. */
export interface MockUsage {
  prompt: number;
  completion: number;
  cacheRead: number;
  cacheWrite: number;
  /** The part of cacheWrite written for one hour. */
  cacheWrite1h: number;
}

/** Usage for an answer of `chunks` content chunks, or null under [[nousage]]. */
export function usageOf(d: Directives, chunks: number): MockUsage | null {
  if (d.nousage) return null;
  return {
    prompt: d.usage?.[0] ?? DEFAULT_PROMPT_TOKENS,
    completion: d.usage?.[1] ?? chunks,
    cacheRead: d.cache?.[0] ?? 0,
    cacheWrite: d.cache?.[1] ?? 0,
    cacheWrite1h: Math.min(d.cache1h ?? 0, d.cache?.[1] ?? 0),
  };
}

/** The text of a content value shaped as a string or a list of parts with a `text` field. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      if (typeof part === 'string') return part;
      const text = (part as { text?: unknown } | null)?.text;
      return typeof text === 'string' ? text : '';
    })
    .join('\n');
}

/** A chat message of any provider, as far as the mock reads it. */
export interface AnyMessage {
  role?: unknown;
  content?: unknown;
  parts?: unknown;
}

/** The last element of `messages` whose `role` satisfies `isUser`. */
export function lastUser(messages: unknown, isUser: (role: unknown) => boolean): AnyMessage | null {
  if (!Array.isArray(messages)) return null;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as AnyMessage | null;
    if (m && typeof m === 'object' && isUser(m.role)) return m;
  }
  return null;
}
