/**
 * Cohere v2 chat stream events → OpenAI chunks. message-start opens the assistant turn; content
 * deltas become content (thinking deltas and tool plans become reasoning_content); tool-call
 * start/delta become tool_calls deltas at Cohere's tool index; message-end gives the finish reason
 * and a final usage chunk. Citation and bracketing events carry nothing for the hub.
 */
import type { SseEvent, StreamConverter } from '../../types';
import { asObj, chatChunk, type ChunkMeta, num, parseJson, str, usageChunk } from '../util';
import { cohereUsage, finishReason } from './response';

export function cohereStreamConverter(model: string): StreamConverter<SseEvent, SseEvent> {
  const meta: ChunkMeta = { id: 'chatcmpl-cohere', created: 0, model };

  return {
    push(event) {
      const data = asObj(parseJson(event.data));
      const delta = asObj(data.delta);
      const message = asObj(delta.message);
      const index = num(data.index) ?? 0;
      switch (str(data.type) ?? event.event) {
        case 'message-start':
          meta.id = str(data.id) ?? meta.id;
          return [chatChunk(meta, { role: 'assistant', content: '' })];
        case 'content-delta': {
          const content = asObj(message.content);
          const text = str(content.text);
          const thinking = str(content.thinking);
          if (text) return [chatChunk(meta, { content: text })];
          if (thinking) return [chatChunk(meta, { reasoning_content: thinking })];
          return [];
        }
        case 'tool-plan-delta': {
          const plan = str(message.tool_plan);
          return plan ? [chatChunk(meta, { reasoning_content: plan })] : [];
        }
        case 'tool-call-start': {
          const call = asObj(message.tool_calls);
          const fn = asObj(call.function);
          const toolCall = {
            index,
            id: str(call.id) ?? `call_${index}`,
            type: 'function',
            function: { name: str(fn.name) ?? '', arguments: str(fn.arguments) ?? '' },
          };
          return [chatChunk(meta, { tool_calls: [toolCall] })];
        }
        case 'tool-call-delta': {
          const args = str(asObj(asObj(message.tool_calls).function).arguments);
          return args ? [chatChunk(meta, { tool_calls: [{ index, function: { arguments: args } }] })] : [];
        }
        case 'message-end': {
          const [prompt, completion] = cohereUsage(delta.usage);
          return [
            chatChunk(meta, {}, finishReason(delta.finish_reason)),
            usageChunk(meta, prompt, completion),
          ];
        }
        default:
          return [];
      }
    },
    end() {
      return [];
    },
  };
}
