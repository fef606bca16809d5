/**
 * Responses `namespace` tools (Codex groups its MCP tools so): a namespace of function tools is, to
 * any other format, its functions under qualified names `<namespace>__<name>` (a name every target
 * accepts: letters, digits, `_` and `-`). A call of such a name is mapped back to the namespace and
 * the function's own name on the way out, by the request's own declarations only.
 */
import type { Json, JsonObject } from '../../types';
import { objects, str, type JsonMap } from '../json';

const SEPARATOR = '__';

export function qualifiedName(namespace: string, name: string): string {
  return `${namespace}${SEPARATOR}${name}`;
}

/** The tools of a Responses request with each namespace replaced by its (qualified) function tools. */
export function flattenTools(tools: Json | undefined): JsonMap[] {
  const out: JsonMap[] = [];
  for (const tool of objects(tools)) {
    if (tool.type !== 'namespace') {
      out.push(tool);
      continue;
    }
    const namespace = str(tool.name) ?? '';
    for (const inner of objects(tool.tools))
      out.push({ ...inner, name: qualifiedName(namespace, str(inner.name) ?? '') });
  }
  return out;
}

/** Qualified name → namespace and name, for the namespaces the request declares. */
export type NamespaceMap = ReadonlyMap<string, { namespace: string; name: string }>;

export function namespaceMap(request: JsonObject | undefined): NamespaceMap {
  const map = new Map<string, { namespace: string; name: string }>();
  for (const tool of objects(request?.tools)) {
    if (tool.type !== 'namespace') continue;
    const namespace = str(tool.name) ?? '';
    for (const inner of objects(tool.tools)) {
      const name = str(inner.name) ?? '';
      map.set(qualifiedName(namespace, name), { namespace, name });
    }
  }
  return map;
}

/** A function_call item's `name` and `namespace` members for a called (maybe qualified) name. */
export function callName(map: NamespaceMap, called: string): { name: string; namespace?: string } {
  const found = map.get(called);
  return found ? { name: found.name, namespace: found.namespace } : { name: called };
}
