import { Channel, ChannelStatus } from '../../database/entities';
import { splitList } from './channel.service';

/** A channel as the management API shows it: every column, the key always empty (write-only). */
export type ChannelView = Omit<Channel, 'key'> & { key: '' };

export function toChannelView(c: Channel): ChannelView {
  return { ...c, key: '' };
}

/** A tag row of the tag-mode list: aggregates of its channels, which it carries as `children`. */
export interface ChannelTagRow {
  is_tag: true;
  tag: string;
  name: string;
  key: '';
  /** The children's type when they all share one, else null. */
  type: number | null;
  /** 1 when any child is enabled, else 2. */
  status: number;
  /** Blank (null) when the children differ. */
  priority: number | null;
  weight: number | null;
  models: string;
  group: string;
  used_quota: number;
  balance: number;
  response_time: number;
  created_time: number;
  test_time: number;
  children: ChannelView[];
}

const same = <T>(values: T[]): T | null => (values.every((v) => v === values[0]) ? values[0] : null);

export function toTagRow(tag: string, children: ChannelView[]): ChannelTagRow {
  const union = (pick: (c: ChannelView) => string | null) => splitList(children.map(pick).join(',')).join(',');
  return {
    is_tag: true,
    tag,
    name: tag,
    key: '',
    type: same(children.map((c) => c.type)),
    status: children.some((c) => c.status === ChannelStatus.Enabled)
      ? ChannelStatus.Enabled
      : ChannelStatus.ManuallyDisabled,
    priority: same(children.map((c) => Number(c.priority))),
    weight: same(children.map((c) => c.weight)),
    models: union((c) => c.models),
    group: union((c) => c.group),
    used_quota: children.reduce((s, c) => s + Number(c.used_quota), 0),
    balance: children.reduce((s, c) => s + Number(c.balance), 0),
    response_time: Math.max(0, ...children.map((c) => c.response_time)),
    created_time: Math.min(...children.map((c) => Number(c.created_time))),
    test_time: Math.max(0, ...children.map((c) => Number(c.test_time))),
    children,
  };
}
