/**
 * A hub chat request → a Dify chat-messages body. Dify apps keep their own conversation state and
 * take one `query`, so the conversation is rendered as text: a lone user message as is, otherwise
 * one labelled paragraph per message (system prompt and earlier turns first, the last user message
 * last). Remote images of the last user message go along as Dify `files`; `data:` images would need
 * an upload first and are left out.
 */
import type { JsonObject } from '../../types';
import { arr, isObj, type JsonRecord, type Obj, str, textOf } from '../util';

const LABELS: Readonly<Record<string, string>> = {
  system: 'System',
  developer: 'System',
  user: 'User',
  assistant: 'Assistant',
  tool: 'Tool',
};

export const DEFAULT_DIFY_USER = 'gatehouse';

function lastUserIndex(messages: Obj[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') return i;
  return -1;
}

export function difyQuery(messages: Obj[]): string {
  if (messages.length === 1 && messages[0].role === 'user') return textOf(messages[0].content);
  const last = lastUserIndex(messages);
  const ordered =
    last < 0 ? messages : [...messages.slice(0, last), ...messages.slice(last + 1), messages[last]];
  return ordered
    .map((message) => {
      const label = LABELS[str(message.role) ?? ''] ?? 'User';
      return `${label}: ${textOf(message.content)}`;
    })
    .join('\n\n');
}

function remoteImages(message: Obj | undefined): JsonRecord[] {
  return arr(message?.content).flatMap((part): JsonRecord[] => {
    if (!isObj(part) || part.type !== 'image_url') return [];
    const url = isObj(part.image_url) ? str(part.image_url.url) : str(part.image_url);
    return url && /^https?:\/\//i.test(url) ? [{ type: 'image', transfer_method: 'remote_url', url }] : [];
  });
}

export function difyBody(body: JsonObject, stream: boolean): JsonObject {
  const messages = arr(body.messages).filter(isObj);
  const files = remoteImages(messages[lastUserIndex(messages)]);
  const out: JsonObject = {
    inputs: {},
    query: difyQuery(messages),
    response_mode: stream ? 'streaming' : 'blocking',
    user: str(body.user) || DEFAULT_DIFY_USER,
  };
  if (files.length > 0) out.files = files;
  return out;
}
