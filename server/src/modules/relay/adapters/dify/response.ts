/**
 * Dify answers → hub answers. Blocking: {message_id, answer, created_at, metadata: {usage}} →
 * chat.completion. Streaming (each event's kind is in its JSON `event` field): message and
 * agent_message carry answer deltas → content chunks; message_end → finish chunk + usage chunk from
 * metadata.usage; error → an in-stream error object. Workflow, node, thought and ping events are
 * dropped. A non-stream client request is also sent as a stream (agent apps have no blocking mode):
 * difyStreamAggregator folds the same events into one chat.completion, and an error event becomes a
 * RelayError with the event's status.
 */
import { RelayError } from '../../errors';
import type { JsonObject, SseEvent, StreamAggregator, StreamConverter } from '../../types';
import {
  asObj,
  chatChunk,
  chatCompletion,
  type ChunkMeta,
  errorChunk,
  num,
  type Obj,
  parseJson,
  str,
  usageChunk,
} from '../util';

function usageOf(answer: Obj): [number, number] {
  const usage = asObj(asObj(answer.metadata).usage);
  return [num(usage.prompt_tokens) ?? 0, num(usage.completion_tokens) ?? 0];
}

function idOf(answer: Obj): string | undefined {
  return str(answer.message_id) ?? str(answer.id);
}

export function difyAnswerToOpenAi(body: unknown, model: string): JsonObject {
  const answer = asObj(body);
  const meta = { id: idOf(answer) ?? 'chatcmpl-dify', created: num(answer.created_at) ?? 0, model };
  const [prompt, completion] = usageOf(answer);
  return chatCompletion(
    meta,
    { role: 'assistant', content: str(answer.answer) ?? '' },
    'stop',
    prompt,
    completion,
  );
}

export function difyStreamConverter(model: string): StreamConverter<SseEvent, SseEvent> {
  const meta: ChunkMeta = { id: 'chatcmpl-dify', created: 0, model };
  let started = false;

  const start = (data: Obj): SseEvent[] => {
    if (started) return [];
    started = true;
    meta.id = idOf(data) ?? meta.id;
    meta.created = num(data.created_at) ?? 0;
    return [chatChunk(meta, { role: 'assistant', content: '' })];
  };

  return {
    push(event) {
      const data = asObj(parseJson(event.data));
      switch (str(data.event) ?? event.event) {
        case 'message':
        case 'agent_message': {
          const answer = str(data.answer);
          return [...start(data), ...(answer ? [chatChunk(meta, { content: answer })] : [])];
        }
        case 'message_end': {
          const [prompt, completion] = usageOf(data);
          return [...start(data), chatChunk(meta, {}, 'stop'), usageChunk(meta, prompt, completion)];
        }
        case 'error':
          return [errorChunk(str(data.message) ?? 'Dify reported an error', str(data.code))];
        default:
          return [];
      }
    },
    end() {
      return [];
    },
  };
}

export function difyStreamAggregator(model: string): StreamAggregator {
  const meta: ChunkMeta = { id: 'chatcmpl-dify', created: 0, model };
  let started = false;
  let answer = '';
  let usage: [number, number] = [0, 0];
  let error: RelayError | null = null;

  return {
    push(event) {
      if (error) return;
      const data = asObj(parseJson(event.data));
      const kind = str(data.event) ?? event.event;
      if (kind === 'message' || kind === 'agent_message' || kind === 'message_end') {
        if (!started) {
          started = true;
          meta.id = idOf(data) ?? meta.id;
          meta.created = num(data.created_at) ?? 0;
        }
        if (kind === 'message_end') usage = usageOf(data);
        else answer += str(data.answer) ?? '';
      } else if (kind === 'error') {
        const status = num(data.status) ?? 0;
        const message = str(data.message) ?? 'Dify reported an error';
        error = new RelayError(
          status >= 400 && status < 600 ? status : 502,
          null,
          {},
          message,
          str(data.code) ?? 'upstream_error',
        );
      }
    },
    result() {
      if (error) throw error;
      return chatCompletion(meta, { role: 'assistant', content: answer }, 'stop', usage[0], usage[1]);
    },
  };
}
