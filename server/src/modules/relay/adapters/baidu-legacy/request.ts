/**
 * OpenAI bodies → Baidu legacy bodies.
 * Chat: {messages (user/assistant/function turns), system (the system messages joined), temperature
 * (clamped to Baidu's (0, 1]), top_p, stop, max_output_tokens, stream, user_id, functions,
 * tool_choice}. Function calling (ERNIE `functions`): OpenAI `tools` (and legacy `functions`) become
 * `functions: [{name, description, parameters}]`; a named `tool_choice` becomes
 * `{type: "function", function: {name}}`, "none" sends no functions. An assistant turn's first tool
 * call becomes its `function_call: {name, arguments}` (ERNIE calls one function per turn) and a
 * `tool` message becomes a `function` turn named after the call it answers. Other roles count as user.
 * Embeddings: {input: string[], user_id}.
 */
import type { JsonObject } from '../../types';
import { arr, asObj, compact, isObj, json, num, type Obj, stopList, str, textOf } from '../util';

const MIN_TEMPERATURE = 0.01;

function clampTemperature(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.min(1, Math.max(MIN_TEMPERATURE, value));
}

/** OpenAI tools (type function) and legacy functions → ERNIE functions. */
export function baiduFunctions(body: JsonObject): Obj[] {
  const defs = [
    ...arr(body.tools)
      .map(asObj)
      .filter((tool) => (str(tool.type) ?? 'function') === 'function')
      .map((tool) => asObj(tool.function)),
    ...arr(body.functions).map(asObj),
  ];
  return defs
    .filter((fn) => str(fn.name) !== undefined)
    .map((fn) =>
      compact({
        name: fn.name,
        description: str(fn.description),
        parameters: isObj(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
      }),
    );
}

/** A named OpenAI tool_choice (or legacy function_call) → ERNIE tool_choice; null for "none". */
function toolChoice(body: JsonObject): Obj | null | undefined {
  const choice = body.tool_choice ?? body.function_call;
  if (choice === 'none') return null;
  const named = isObj(choice) ? (str(asObj(choice.function).name) ?? str(choice.name)) : undefined;
  return named === undefined ? undefined : { type: 'function', function: { name: named } };
}

export function baiduChatBody(body: JsonObject, stream: boolean): JsonObject {
  const system: string[] = [];
  const messages: Obj[] = [];
  const callNames = new Map<string, string>();
  for (const message of arr(body.messages)) {
    const m = asObj(message);
    const role = str(m.role);
    const content = textOf(m.content);
    if (role === 'system' || role === 'developer') {
      system.push(content);
    } else if (role === 'assistant') {
      const calls = arr(m.tool_calls).map(asObj);
      for (const call of calls) {
        const name = str(asObj(call.function).name);
        if (str(call.id) !== undefined && name !== undefined) callNames.set(str(call.id)!, name);
      }
      const first =
        calls.length > 0 ? asObj(calls[0].function) : isObj(m.function_call) ? m.function_call : null;
      const functionCall = first
        ? { name: str(first.name) ?? '', arguments: str(first.arguments) ?? '{}' }
        : undefined;
      messages.push(compact({ role: 'assistant', content, function_call: functionCall }));
    } else if (role === 'tool' || role === 'function') {
      const name = callNames.get(str(m.tool_call_id) ?? '') ?? str(m.name) ?? '';
      messages.push({ role: 'function', name, content });
    } else {
      messages.push({ role: 'user', content });
    }
  }
  const choice = toolChoice(body);
  const functions = choice === null ? [] : baiduFunctions(body);
  return compact({
    messages: json(messages),
    system: system.length > 0 ? system.join('\n') : undefined,
    temperature: clampTemperature(num(body.temperature)),
    top_p: num(body.top_p),
    stop: stopList(body.stop),
    max_output_tokens: num(body.max_completion_tokens) ?? num(body.max_tokens),
    stream,
    user_id: str(body.user),
    functions: functions.length > 0 ? functions : undefined,
    tool_choice: functions.length > 0 && choice ? choice : undefined,
  });
}

export function baiduEmbeddingBody(body: JsonObject): JsonObject {
  const input =
    typeof body.input === 'string' ? [body.input] : arr(body.input).filter((x) => typeof x === 'string');
  return compact({ input, user_id: str(body.user) });
}
