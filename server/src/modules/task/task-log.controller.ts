import { applyDecorators, Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../common/http/request-context';
import { AdminOnly, CurrentUser, UserOnly } from '../../common/http/access';
import { TaskLogService } from './task-log.service';
import { ApiPage } from '../../common/http/api-envelope';
import { AdminDrawingLogView, AdminTaskLogView, DrawingLogView, TaskLogView } from './task-log.view';
import type { UnknownObject as Raw } from '../../common/json';

type Q = { name: string; description: string };

const queries = (list: Q[]) => applyDecorators(...list.map((q) => ApiQuery({ ...q, required: false })));

const PAGING: Q[] = [
  { name: 'p', description: 'page, 1-based' },
  { name: 'page_size', description: 'rows per page (default 10, at most 100; also size, ps)' },
];
const ADMIN: Q[] = [
  { name: 'channel_id', description: 'channel id (admins)' },
  { name: 'user_id', description: 'user id (admins)' },
];
const DRAWING: Q[] = [
  { name: 'mj_id', description: 'exact task id of the proxy' },
  { name: 'action', description: 'IMAGINE, UPSCALE, ...' },
  { name: 'status', description: 'SUBMITTED, IN_PROGRESS, SUCCESS, FAILURE, ...' },
  { name: 'start_timestamp', description: 'submit time from, unix milliseconds' },
  { name: 'end_timestamp', description: 'submit time to, unix milliseconds' },
];
const TASK: Q[] = [
  { name: 'task_id', description: 'exact task id' },
  { name: 'platform', description: 'suno' },
  { name: 'action', description: 'MUSIC or LYRICS' },
  { name: 'status', description: 'SUBMITTED, QUEUED, IN_PROGRESS, SUCCESS, FAILURE, ...' },
  { name: 'start_timestamp', description: 'submit time from, unix seconds' },
  { name: 'end_timestamp', description: 'submit time to, unix seconds' },
];

/** The drawing log: Midjourney tasks, timestamps in milliseconds. */
@ApiTags('tasks')
@Controller('api/mj')
export class DrawingLogController {
  constructor(private readonly logs: TaskLogService) {}

  @Get()
  @AdminOnly()
  @queries([...PAGING, ...ADMIN, ...DRAWING])
  @ApiOperation({ summary: 'Every user’s drawing tasks, newest first → {items, total, page, page_size}' })
  @ApiPage(AdminDrawingLogView)
  listAll(@Query() query: Raw) {
    return this.logs.listDrawings(query, null);
  }

  @Get('self')
  @UserOnly()
  @queries([...PAGING, ...DRAWING])
  @ApiOperation({ summary: 'The caller’s own drawing tasks (no channel) → {items, total, page, page_size}' })
  @ApiPage(DrawingLogView)
  listOwn(@CurrentUser() me: AuthUser, @Query() query: Raw) {
    return this.logs.listDrawings(query, me.id);
  }
}

/** The task log: generic asynchronous tasks (Suno), timestamps in seconds. */
@ApiTags('tasks')
@Controller('api/task')
export class TaskLogController {
  constructor(private readonly logs: TaskLogService) {}

  @Get()
  @AdminOnly()
  @queries([...PAGING, ...ADMIN, ...TASK])
  @ApiOperation({ summary: 'Every user’s tasks, newest first → {items, total, page, page_size}' })
  @ApiPage(AdminTaskLogView)
  listAll(@Query() query: Raw) {
    return this.logs.listTasks(query, null);
  }

  @Get('self')
  @UserOnly()
  @queries([...PAGING, ...TASK])
  @ApiOperation({ summary: 'The caller’s own tasks (no channel) → {items, total, page, page_size}' })
  @ApiPage(TaskLogView)
  listOwn(@CurrentUser() me: AuthUser, @Query() query: Raw) {
    return this.logs.listTasks(query, me.id);
  }
}
