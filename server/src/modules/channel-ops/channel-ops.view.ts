import { ApiProperty } from '@nestjs/swagger';

/** How often one kind of client called through a channel for a group (times in unix seconds). */
export class ClientTypeSeen {
  @ApiProperty({ description: 'the kind of client the calls came from' }) client_type!: string;
  @ApiProperty({ type: 'integer' }) count!: number;
  @ApiProperty({ type: 'integer' }) first_seen!: number;
  @ApiProperty({ type: 'integer' }) last_seen!: number;
}

/** A group whose callers used the channel, and the kinds of client they called from. */
export class GroupSeen {
  @ApiProperty() group!: string;
  @ApiProperty({ type: 'integer' }) first_seen!: number;
  @ApiProperty({ type: 'integer' }) last_seen!: number;
  @ApiProperty({ type: [ClientTypeSeen] }) client_types!: ClientTypeSeen[];
}

/** Who called through a channel, most recent group first. */
export class UpstreamGroups {
  @ApiProperty({ type: [GroupSeen] }) groups!: GroupSeen[];
}
