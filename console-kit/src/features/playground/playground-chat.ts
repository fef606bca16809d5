/**
 * The playground's conversation: a reducer for the message states, the request body
 * (docs/decisions.md#playground-defaults, docs/decisions.md#console-extras) and the reading of the OpenAI event stream of
 * `POST /pg/chat/completions` (parsed with eventsource-parser).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export type ChatRole = 'system' | 'user' | 'assistant';

/**
 * `loading`: sent, nothing received yet; `incomplete`: text is arriving; `complete`: the stream ended
 * with `[DONE]`; `error`: refused or cut off (any text received so far is kept).
 */
export type MessageStatus = 'loading' | 'incomplete' | 'complete' | 'error';

export interface ChatMessage {
  id: number;
  role: Exclude<ChatRole, 'system'>;
  content: string;
  status: MessageStatus;
  error?: string;
}

export interface ChatState {
  messages: ChatMessage[];
  nextId: number;
  /** The assistant message being written, if any. */
  pendingId: number | null;
}

export type ChatAction =
  | { type: 'send'; text: string }
  | { type: 'delta'; id: number; text: string }
  | { type: 'done'; id: number }
  | { type: 'fail'; id: number; error: string }
  | { type: 'clear' };

export const initialChatState: ChatState = { messages: [], nextId: 1, pendingId: null };

function update(state: ChatState, id: number, change: (message: ChatMessage) => ChatMessage): ChatState {
  return {
    ...state,
    messages: state.messages.map((message) => (message.id === id ? change(message) : message)),
  };
}

const isFinal = (status: MessageStatus) => status === 'complete' || status === 'error';

/** Each transition is allowed only from the states named here; anything else leaves the state as it was. */
export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'send': {
      if (state.pendingId !== null || !action.text.trim()) {
        return state;
      }
      const user: ChatMessage = { id: state.nextId, role: 'user', content: action.text, status: 'complete' };
      const reply: ChatMessage = { id: state.nextId + 1, role: 'assistant', content: '', status: 'loading' };
      return { messages: [...state.messages, user, reply], nextId: state.nextId + 2, pendingId: reply.id };
    }
    case 'delta':
      if (action.id !== state.pendingId || !action.text) {
        return state;
      }
      return update(state, action.id, (message) => ({
        ...message,
        content: message.content + action.text,
        status: 'incomplete',
      }));
    case 'done':
      if (action.id !== state.pendingId) {
        return state;
      }
      return {
        ...update(state, action.id, (message) =>
          isFinal(message.status) ? message : { ...message, status: 'complete' },
        ),
        pendingId: null,
      };
    case 'fail':
      if (action.id !== state.pendingId) {
        return state;
      }
      return {
        ...update(state, action.id, (message) => ({ ...message, status: 'error', error: action.error })),
        pendingId: null,
      };
    case 'clear':
      return { ...initialChatState, nextId: state.nextId };
  }
}

export interface PlaygroundSettings {
  model: string;
  group: string;
  /** 0 = the model's default: not sent (docs/decisions.md#console-extras). */
  temperature: number;
  /** 0 = no limit: not sent (docs/decisions.md#console-extras). */
  maxTokens: number;
  systemPrompt: string;
}

export interface ChatRequest {
  model: string;
  group: string;
  stream: true;
  messages: { role: ChatRole; content: string }[];
  temperature?: number;
  max_tokens?: number;
}

/**
 * The body for `POST /pg/chat/completions`: the system prompt (when not blank), the finished turns of
 * the conversation (an answer that failed is left out, with the question that led to it, so a retry
 * does not carry the broken exchange), and `temperature` / `max_tokens` only when set.
 */
export function buildChatRequest(settings: PlaygroundSettings, messages: ChatMessage[]): ChatRequest {
  const turns: { role: ChatRole; content: string }[] = [];
  if (settings.systemPrompt.trim()) {
    turns.push({ role: 'system', content: settings.systemPrompt });
  }
  messages.forEach((message, index) => {
    if (message.role === 'user') {
      const answer = messages[index + 1];
      if (answer && answer.role === 'assistant' && answer.status === 'error') {
        return;
      }
      turns.push({ role: 'user', content: message.content });
    } else if (message.status !== 'error' && message.status !== 'loading' && message.content) {
      turns.push({ role: 'assistant', content: message.content });
    }
  });
  const body: ChatRequest = { model: settings.model, group: settings.group, stream: true, messages: turns };
  if (settings.temperature > 0) {
    body.temperature = Math.round(Math.min(1, settings.temperature) * 10) / 10;
  }
  if (settings.maxTokens > 0) {
    body.max_tokens = settings.maxTokens;
  }
  return body;
}

/** Max tokens as typed: an integer ≥ 0; anything else is 0 (not sent). */
export function parseMaxTokens(text: string): number {
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) && value > 0 ? Math.min(value, 2_147_483_647) : 0;
}

/** The text of one stream event: choices[0].delta.content; '' for role-only, usage or other chunks. */
export function deltaText(data: string): string {
  try {
    const chunk = JSON.parse(data) as { choices?: { delta?: { content?: unknown } }[] };
    const content = chunk.choices?.[0]?.delta?.content;
    return typeof content === 'string' ? content : '';
  } catch {
    return '';
  }
}

/** An error the upstream or the gateway put into the stream: `{"error": {"message": ...}}`. */
function streamError(data: string): string | null {
  try {
    const chunk = JSON.parse(data) as { error?: { message?: unknown } | string };
    if (typeof chunk.error === 'string') {
      return chunk.error;
    }
    return chunk.error && typeof chunk.error.message === 'string' ? chunk.error.message : null;
  } catch {
    return null;
  }
}

export class ChatStreamError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'ChatStreamError';
  }
}

/** The message of an OpenAI-format error answer (`{"error": {"message"}}`), else ''. */
async function errorMessageOf(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  return streamError(text) ?? '';
}

/**
 * Reads the event stream of a chat completion, handing each piece of text to `onText`. Resolves when
 * `[DONE]` arrives; rejects with a {@link ChatStreamError} when the answer is a refusal (its message and
 * status), when the stream carries an error, or when it ends without `[DONE]` (cut off).
 */
export async function readChatStream(response: Response, onText: (text: string) => void): Promise<void> {
  if (!response.ok || !response.body) {
    throw new ChatStreamError(await errorMessageOf(response), response.status);
  }
  // Written by the parser's callback, read by the loop.
  const outcome: { done: boolean; failure: string | null } = { done: false, failure: null };
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      if (outcome.done || outcome.failure !== null) {
        return;
      }
      if (event.data.trim() === '[DONE]') {
        outcome.done = true;
        return;
      }
      const error = streamError(event.data);
      if (error !== null) {
        outcome.failure = error;
        return;
      }
      const text = deltaText(event.data);
      if (text) {
        onText(text);
      }
    },
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const finished = () => outcome.done || outcome.failure !== null;
  try {
    while (!finished()) {
      const { value, done: ended } = await reader.read();
      if (ended) {
        parser.feed(decoder.decode());
        // A last event without its closing blank line still counts.
        parser.reset({ consume: true });
        break;
      }
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    if (finished()) {
      await reader.cancel().catch(() => undefined);
    }
  }
  if (outcome.failure !== null) {
    throw new ChatStreamError(outcome.failure, response.status);
  }
  if (!outcome.done) {
    throw new ChatStreamError('', null);
  }
}
