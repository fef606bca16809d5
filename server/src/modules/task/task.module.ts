import { Module } from '@nestjs/common';
import { RelayModule } from '../relay';
import { BillingModule } from '../billing';
import { ContentLogModule } from '../log';
import { OptionModule } from '../option';
import { UserModule } from '../user';
import { MidjourneyRelay } from './midjourney/mj-relay.service';
import { MjTaskStore } from './midjourney/mj-tasks.service';
import { SunoRelay } from './suno/suno-relay.service';
import { SunoTaskStore } from './suno/suno-tasks.service';
import { TaskBillingService } from './task-billing.service';
import { DrawingLogController, TaskLogController } from './task-log.controller';
import { TaskLogService } from './task-log.service';
import { TaskPoller } from './task-poller.service';
import { TaskRoutes } from './task-routes';
import { TaskSubmitter } from './task-submit';
import { TaskUpstream } from './task-upstream';

/**
 * Asynchronous task relays (Midjourney-proxy, Suno): the /mj and /suno routes, per-call billing held
 * until the task ends, the master node's poller, and the drawing and task logs (/api/mj, /api/task).
 */
@Module({
  imports: [BillingModule, ContentLogModule, OptionModule, RelayModule, UserModule],
  controllers: [DrawingLogController, TaskLogController],
  providers: [
    TaskUpstream,
    TaskSubmitter,
    TaskBillingService,
    MjTaskStore,
    SunoTaskStore,
    MidjourneyRelay,
    SunoRelay,
    TaskPoller,
    TaskLogService,
    TaskRoutes,
  ],
  exports: [TaskPoller],
})
export class TaskModule {}
