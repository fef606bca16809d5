/**
 * OpenAI chat body → Hunyuan ChatCompletions body {Model, Messages: [{Role, Content, ToolCalls?,
 * ToolCallId?}], Stream, Temperature, TopP, Tools?, ToolChoice?, CustomTool?}. Roles other than
 * system/user/assistant/tool count as user; content parts are reduced to their text.
 * Function calling: OpenAI `tools` → `Tools: [{Type: "function", Function: {Name, Description,
 * Parameters (the JSON schema as a string)}}]`; tool_choice "none"/"auto" pass as ToolChoice, a named
 * choice is ToolChoice "custom" with that tool as CustomTool ("required" has no Hunyuan equivalent and
 * is sent as "auto"). Assistant tool calls → ToolCalls [{Id, Type, Function: {Name, Arguments}}];
 * a tool message → Role "tool" with its ToolCallId.
 */
import type { JsonObject } from '../../types';
import { arr, asObj, compact, isObj, json, num, type Obj, str, textOf } from '../util';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

function hunyuanTools(body: JsonObject): Obj[] {
  return arr(body.tools)
    .map(asObj)
    .filter(
      (tool) => (str(tool.type) ?? 'function') === 'function' && str(asObj(tool.function).name) !== undefined,
    )
    .map((tool) => {
      const fn = asObj(tool.function);
      return {
        Type: 'function',
        Function: compact({
          Name: fn.name,
          Description: str(fn.description),
          Parameters: JSON.stringify(
            isObj(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
          ),
        }),
      };
    });
}

function toolChoice(body: JsonObject, tools: Obj[]): { ToolChoice?: string; CustomTool?: Obj } {
  const choice = body.tool_choice;
  if (choice === 'none' || choice === 'auto') return { ToolChoice: choice };
  if (choice === 'required') return { ToolChoice: 'auto' };
  const name = isObj(choice) ? str(asObj(choice.function).name) : undefined;
  const tool = tools.find((t) => asObj(t.Function).Name === name);
  return tool ? { ToolChoice: 'custom', CustomTool: tool } : {};
}

function hunyuanMessage(message: unknown): Obj {
  const m = asObj(message);
  const role = str(m.role) ?? 'user';
  const out: Obj = { Role: ROLES.has(role) ? role : 'user', Content: textOf(m.content) };
  if (role === 'tool') out.ToolCallId = str(m.tool_call_id) ?? '';
  const calls = arr(m.tool_calls).map(asObj);
  if (role === 'assistant' && calls.length > 0) {
    out.ToolCalls = calls.map((call) => ({
      Id: str(call.id) ?? '',
      Type: 'function',
      Function: {
        Name: str(asObj(call.function).name) ?? '',
        Arguments: str(asObj(call.function).arguments) ?? '{}',
      },
    }));
  }
  return out;
}

export function hunyuanBody(body: JsonObject, model: string, stream: boolean): JsonObject {
  const tools = body.tool_choice === 'none' ? [] : hunyuanTools(body);
  return compact({
    Model: model,
    Messages: json(arr(body.messages).map(hunyuanMessage)),
    Stream: stream,
    Temperature: num(body.temperature),
    TopP: num(body.top_p),
    ...(tools.length > 0 ? { Tools: tools, ...toolChoice(body, tools) } : {}),
  });
}
