import { ApiProperty } from '@nestjs/swagger';

/** A drawing task as the caller's own drawing log lists it (timestamps in milliseconds). */
export class DrawingLogView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ type: 'integer' }) created_at!: number;
  @ApiProperty({ type: 'integer' }) submit_time!: number;
  @ApiProperty({ type: 'integer' }) start_time!: number;
  @ApiProperty({ type: 'integer' }) finish_time!: number;
  @ApiProperty({ description: 'IMAGINE, UPSCALE, ...' }) action!: string;
  @ApiProperty({ description: "the proxy's task id" }) mj_id!: string;
  @ApiProperty({ type: 'integer', description: "the proxy's submit code" }) code!: number;
  @ApiProperty({ description: 'SUBMITTED, IN_PROGRESS, SUCCESS, FAILURE, ...' }) status!: string;
  @ApiProperty({ example: '100%' }) progress!: string;
  @ApiProperty() image_url!: string;
  @ApiProperty() prompt!: string;
  @ApiProperty() prompt_en!: string;
  @ApiProperty() description!: string;
  @ApiProperty() fail_reason!: string;
  @ApiProperty({ type: 'integer', description: 'quota charged' }) quota!: number;
}

/** A drawing task in the admins' drawing log: also its user and channel. */
export class AdminDrawingLogView extends DrawingLogView {
  @ApiProperty({ type: 'integer' }) user_id!: number;
  @ApiProperty({ type: 'integer' }) channel_id!: number;
}

/** A generic asynchronous task (Suno) as the caller's own task log lists it (timestamps in seconds). */
export class TaskLogView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ type: 'integer' }) created_at!: number;
  @ApiProperty({ type: 'integer' }) updated_at!: number;
  @ApiProperty({ type: 'integer' }) submit_time!: number;
  @ApiProperty({ type: 'integer' }) start_time!: number;
  @ApiProperty({ type: 'integer' }) finish_time!: number;
  @ApiProperty({ example: 'suno' }) platform!: string;
  @ApiProperty({ description: 'MUSIC or LYRICS' }) action!: string;
  @ApiProperty() task_id!: string;
  @ApiProperty({ description: 'SUBMITTED, QUEUED, IN_PROGRESS, SUCCESS, FAILURE, ...' }) status!: string;
  @ApiProperty({ example: '100%' }) progress!: string;
  @ApiProperty() fail_reason!: string;
  @ApiProperty({ type: 'integer', description: 'quota charged' }) quota!: number;
  @ApiProperty({
    description: "the upstream's result as it returned it (JSON), or null",
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array', items: {} },
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'object', nullable: true, enum: [null] },
    ],
  })
  data!: unknown;
}

/** A task in the admins' task log: also its user and channel. */
export class AdminTaskLogView extends TaskLogView {
  @ApiProperty({ type: 'integer' }) user_id!: number;
  @ApiProperty({ type: 'integer' }) channel_id!: number;
}
