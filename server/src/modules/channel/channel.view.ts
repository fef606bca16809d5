import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { pageSchema } from '../../common/http/api-envelope';
import { Channel, ChannelStatus } from '../../database/entities';
import { splitList } from '../../common/lists';

/** A channel as the management API shows it: every column, the key always empty (write-only). */
export class ChannelView implements Omit<Channel, 'key'> {
  @ApiProperty() id!: number;
  @ApiProperty() type!: number;
  @ApiProperty({ enum: [''], description: 'always empty: keys are write-only' }) key!: '';
  @ApiProperty({ type: String, nullable: true }) openai_organization!: string | null;
  @ApiProperty({ type: String, nullable: true }) test_model!: string | null;
  @ApiProperty() status!: number;
  @ApiProperty() name!: string;
  @ApiProperty() weight!: number;
  @ApiProperty() created_time!: number;
  @ApiProperty() test_time!: number;
  @ApiProperty() response_time!: number;
  @ApiProperty({ type: String, nullable: true }) base_url!: string | null;
  @ApiProperty({ type: String, nullable: true }) other!: string | null;
  @ApiProperty() balance!: number;
  @ApiProperty() balance_updated_time!: number;
  @ApiProperty({ type: String, nullable: true }) models!: string | null;
  @ApiProperty() group!: string;
  @ApiProperty() used_quota!: number;
  @ApiProperty({ type: String, nullable: true }) model_mapping!: string | null;
  @ApiProperty({ type: String, nullable: true }) status_code_mapping!: string | null;
  @ApiProperty() priority!: number;
  @ApiProperty() auto_ban!: number;
  @ApiProperty({ type: String, nullable: true }) other_info!: string | null;
  @ApiProperty({ type: String, nullable: true }) tag!: string | null;
  @ApiProperty({ type: String, nullable: true }) setting!: string | null;
  @ApiProperty({ type: String, nullable: true }) param_override!: string | null;
  @ApiProperty() max_input_tokens!: number;
  @ApiProperty() rpm_limit!: number;
  @ApiProperty() tpm_limit!: number;
  @ApiProperty() concurrency_limit!: number;
}

export function toChannelView(c: Channel): ChannelView {
  return { ...c, key: '' };
}

/** A tag row of the tag-mode list: aggregates of its channels, which it carries as `children`. */
export class ChannelTagRow {
  @ApiProperty({ enum: [true] }) is_tag!: true;
  @ApiProperty() tag!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: [''] }) key!: '';
  /** The children's type when they all share one, else null. */
  @ApiProperty({ type: Number, nullable: true }) type!: number | null;
  /** 1 when any child is enabled, else 2. */
  @ApiProperty() status!: number;
  /** Blank (null) when the children differ. */
  @ApiProperty({ type: Number, nullable: true }) priority!: number | null;
  @ApiProperty({ type: Number, nullable: true }) weight!: number | null;
  @ApiProperty() models!: string;
  @ApiProperty() group!: string;
  @ApiProperty() used_quota!: number;
  @ApiProperty() balance!: number;
  @ApiProperty() response_time!: number;
  @ApiProperty() created_time!: number;
  @ApiProperty() test_time!: number;
  @ApiProperty({ type: [ChannelView] }) children!: ChannelView[];
}

const same = <T>(values: T[]): T | null => (values.every((v) => v === values[0]) ? values[0] : null);

export function toTagRow(tag: string, children: ChannelView[]): ChannelTagRow {
  const union = (pick: (c: ChannelView) => string | null) =>
    splitList(children.map(pick).join(',')).join(',');
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

/** `GET /api/channel/` and `/search`: a page of channels (tag rows in tag mode) plus the count per type. */
export const CHANNEL_PAGE: SchemaObject = {
  ...pageSchema({ oneOf: [{ $ref: getSchemaPath(ChannelView) }, { $ref: getSchemaPath(ChannelTagRow) }] }),
  required: ['items', 'total', 'page', 'page_size', 'type_counts'],
};
CHANNEL_PAGE.properties = {
  ...CHANNEL_PAGE.properties,
  type_counts: {
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'channel type → count',
  },
};
