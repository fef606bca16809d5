import { ApiProperty } from '@nestjs/swagger';
import type { Lang } from '../../common/i18n/messages';
import { LogEntry } from '../../database/entities';
import { renderLogContent, withoutLogText } from './log-text';

/** A log row as its owner sees it: no channel, no node, no `admin_info` in `other`. */
export class LogView {
  @ApiProperty() id!: number;
  @ApiProperty() created_at!: number;
  @ApiProperty() type!: number;
  @ApiProperty() content!: string;
  @ApiProperty() user_id!: number;
  @ApiProperty() username!: string;
  @ApiProperty() token_id!: number;
  @ApiProperty() token_name!: string;
  @ApiProperty() model_name!: string;
  @ApiProperty() quota!: number;
  @ApiProperty() prompt_tokens!: number;
  @ApiProperty() completion_tokens!: number;
  @ApiProperty() use_time!: number;
  @ApiProperty() is_stream!: boolean;
  @ApiProperty() group!: string;
  @ApiProperty() ip!: string;
  @ApiProperty() request_id!: string;
  /** A JSON object as text (see the spec's list of keys), or "". */
  @ApiProperty() other!: string;
}

/** A log row as admins see it: plus the channel (id and name) and the node that wrote it. */
export class AdminLogView extends LogView {
  @ApiProperty() channel!: number;
  @ApiProperty() channel_name!: string;
  @ApiProperty() node_name!: string;
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
