/**
 * OpenAI chat body → Hunyuan ChatCompletions body {Model, Messages: [{Role, Content}], Stream,
 * Temperature, TopP}. Roles other than system/user/assistant count as user; content parts are
 * reduced to their text.
 */
import type { JsonObject } from '../../types';
import { arr, asObj, compact, num, str, textOf } from '../util';

const ROLES = new Set(['system', 'user', 'assistant']);

export function hunyuanBody(body: JsonObject, model: string, stream: boolean): JsonObject {
  const messages = arr(body.messages).map((message) => {
    const m = asObj(message);
    const role = str(m.role) ?? 'user';
    return { Role: ROLES.has(role) ? role : 'user', Content: textOf(m.content) };
  });
  return compact({
    Model: model,
    Messages: messages,
    Stream: stream,
    Temperature: num(body.temperature),
    TopP: num(body.top_p),
  });
}
