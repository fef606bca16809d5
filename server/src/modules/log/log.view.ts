import type { Lang } from '../../common/i18n/messages';
import { LogEntry } from '../../database/entities';
import { renderLogContent, withoutLogText } from './log-text';

/** A log row as its owner sees it: no channel, no node, no `admin_info` in `other`. */
export interface LogView {
  id: number;
  created_at: number;
  type: number;
  content: string;
  user_id: number;
  username: string;
  token_id: number;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  use_time: number;
  is_stream: boolean;
  group: string;
  ip: string;
  request_id: string;
  /** A JSON object as text (see the spec's list of keys), or "". */
  other: string;
}

/** A log row as admins see it: plus the channel (id and name) and the node that wrote it. */
export interface AdminLogView extends LogView {
  channel: number;
  channel_name: string;
  node_name: string;
}

/** `other` without the keys only admins may read; text that is not a JSON object is dropped. */
export function userOther(other: string | null): string {
  other = withoutLogText(other);
  if (!other) return '';
  try {
    const parsed: unknown = JSON.parse(other);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return '';
    const { admin_info: _hidden, ...rest } = parsed as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return '';
  }
}

/** The row as its owner sees it; its text in `lang` when it was written as a message key. */
export function toLogView(l: LogEntry, lang: Lang): LogView {
  return {
    id: Number(l.id),
    created_at: Number(l.created_at),
    type: l.type,
    content: renderLogContent(l.content, l.other, lang),
    user_id: l.user_id,
    username: l.username,
    token_id: l.token_id,
    token_name: l.token_name,
    model_name: l.model_name,
    quota: Number(l.quota),
    prompt_tokens: l.prompt_tokens,
    completion_tokens: l.completion_tokens,
    use_time: l.use_time,
    is_stream: !!l.is_stream,
    group: l.group,
    ip: l.ip,
    request_id: l.request_id,
    other: userOther(l.other),
  };
}

export function toAdminLogView(l: LogEntry, channelNames: Map<number, string>, lang: Lang): AdminLogView {
  return {
    ...toLogView(l, lang),
    other: withoutLogText(l.other),
    channel: l.channel_id,
    channel_name: l.channel_id ? (channelNames.get(l.channel_id) ?? '') : '',
    node_name: l.node_name,
  };
}
