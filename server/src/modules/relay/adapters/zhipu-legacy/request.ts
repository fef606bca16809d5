/**
 * OpenAI chat body → Zhipu v3 model-api body {prompt, temperature, top_p, incremental}. The v3
 * prompt knows only user and assistant turns: a system message becomes a user turn answered by an
 * assistant "Okay", any other role a user turn; content parts are reduced to their text.
 */
import type { JsonObject } from '../../types';
import { arr, asObj, compact, num, str, textOf } from '../util';

type Turn = { role: 'user' | 'assistant'; content: string };

function turns(message: unknown): Turn[] {
  const m = asObj(message);
  const content = textOf(m.content);
  switch (str(m.role)) {
    case 'assistant':
      return [{ role: 'assistant', content }];
    case 'system':
    case 'developer':
      return [
        { role: 'user', content },
        { role: 'assistant', content: 'Okay' },
      ];
    default:
      return [{ role: 'user', content }];
  }
}

export function zhipuBody(body: JsonObject): JsonObject {
  return compact({
    prompt: arr(body.messages).flatMap(turns),
    temperature: num(body.temperature),
    top_p: num(body.top_p),
    request_id: str(body.request_id),
    incremental: true,
  });
}
