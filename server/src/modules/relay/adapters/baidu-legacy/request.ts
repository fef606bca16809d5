/**
 * OpenAI bodies → Baidu legacy bodies.
 * Chat: {messages (user/assistant turns), system (the system messages joined), temperature (clamped
 * to Baidu's (0, 1]), top_p, stop, max_output_tokens, stream, user_id}. Other roles count as user.
 * Embeddings: {input: string[], user_id}.
 */
import type { JsonObject } from '../../types';
import { arr, asObj, compact, num, stopList, str, textOf } from '../util';

const MIN_TEMPERATURE = 0.01;

function clampTemperature(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.min(1, Math.max(MIN_TEMPERATURE, value));
}

export function baiduChatBody(body: JsonObject, stream: boolean): JsonObject {
  const system: string[] = [];
  const messages: Array<{ role: string; content: string }> = [];
  for (const message of arr(body.messages)) {
    const m = asObj(message);
    const role = str(m.role);
    const content = textOf(m.content);
    if (role === 'system' || role === 'developer') system.push(content);
    else messages.push({ role: role === 'assistant' ? 'assistant' : 'user', content });
  }
  return compact({
    messages,
    system: system.length > 0 ? system.join('\n') : undefined,
    temperature: clampTemperature(num(body.temperature)),
    top_p: num(body.top_p),
    stop: stopList(body.stop),
    max_output_tokens: num(body.max_completion_tokens) ?? num(body.max_tokens),
    stream,
    user_id: str(body.user),
  });
}

export function baiduEmbeddingBody(body: JsonObject): JsonObject {
  const input =
    typeof body.input === 'string' ? [body.input] : arr(body.input).filter((x) => typeof x === 'string');
  return compact({ input, user_id: str(body.user) });
}
