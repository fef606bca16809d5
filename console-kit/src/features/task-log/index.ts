export { TaskLogPage } from './task-log-page';
export { taskLogApi, useListGenericTasksQuery, type TaskListArgs } from './task-api';
export {
  taskListUrl,
  emptyTaskFilters,
  taskStatusKey,
  taskActionKey,
  taskPlatformKey,
  taskDurationSeconds,
  type GenericTask,
  type TaskPage,
  type TaskFilters,
} from './task-rules';
export { taskLocales, TASK_LOG_NAMESPACE } from './task-locales';
export { taskLogFeature } from './feature';
