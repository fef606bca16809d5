/**
 * Stream converters of the Ollama adapter, whose streams are cut as NDJSON lines:
 *  - native `/api/chat` lines {message: {content, thinking?, tool_calls?}, done, done_reason,
 *    prompt_eval_count, eval_count} → OpenAI chunks, closed by a finish chunk and a usage chunk;
 *  - the OpenAI-compatible `/v1` endpoints answer SSE, which arrives here line by line: `event:` and
 *    `data:` lines are put back together into events, blank lines, comments and [DONE] dropped.
 */
import type { SseEvent, StreamConverter } from '../../types';
import { asObj, chatChunk, type ChunkMeta, errorChunk, num, parseJson, str, usageChunk } from '../util';
import { createdSeconds, finishReason, openAiToolCalls } from './chat';

export function ollamaChatStreamConverter(model: string): StreamConverter<SseEvent, SseEvent> {
  const meta: ChunkMeta = { id: 'chatcmpl-ollama', created: 0, model };
  let started = false;
  let toolCount = 0;

  return {
    push(event) {
      const line = asObj(parseJson(event.data));
      const error = str(line.error);
      if (error) return [errorChunk(error)];

      const out: SseEvent[] = [];
      if (!started) {
        started = true;
        meta.created = createdSeconds(line.created_at);
        out.push(chatChunk(meta, { role: 'assistant', content: '' }));
      }
      const message = asObj(line.message);
      const thinking = str(message.thinking);
      const content = str(message.content);
      if (thinking) out.push(chatChunk(meta, { reasoning_content: thinking }));
      if (content) out.push(chatChunk(meta, { content }));
      const calls = openAiToolCalls(message.tool_calls, toolCount);
      if (calls.length > 0) {
        const indexed = calls.map((call, i) => ({ index: toolCount + i, ...call }));
        toolCount += calls.length;
        out.push(chatChunk(meta, { tool_calls: indexed }));
      }
      if (line.done === true) {
        out.push(chatChunk(meta, {}, finishReason(line.done_reason, toolCount > 0)));
        out.push(usageChunk(meta, num(line.prompt_eval_count) ?? 0, num(line.eval_count) ?? 0));
      }
      return out;
    },
    end() {
      return [];
    },
  };
}

export function sseLineConverter(): StreamConverter<SseEvent, SseEvent> {
  let eventName: string | undefined;
  const field = (line: string, name: string): string => line.slice(name.length + 1).replace(/^ /, '');

  return {
    push({ data }) {
      const line = data.replace(/\r$/, '');
      if (line.startsWith('event:')) {
        eventName = field(line, 'event');
        return [];
      }
      if (!line.startsWith('data:')) return [];
      const payload = field(line, 'data');
      const name = eventName;
      eventName = undefined;
      if (payload === '[DONE]') return [];
      return [name !== undefined ? { event: name, data: payload } : { data: payload }];
    },
    end() {
      return [];
    },
  };
}
