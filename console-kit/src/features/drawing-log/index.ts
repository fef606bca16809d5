export { DrawingLogPage, isWebUrl } from './drawing-log-page';
export { drawingApi, useListDrawingTasksQuery, type DrawingListArgs } from './drawing-api';
export {
  drawingListUrl,
  emptyDrawingFilters,
  defaultDrawingRange,
  progressPercent,
  durationSeconds,
  durationColor,
  submitResultKey,
  drawingActionKey,
  drawingStatusKey,
  type DrawingTask,
  type DrawingPage,
  type DrawingFilters,
} from './drawing-rules';
export { drawingLocales, DRAWING_NAMESPACE } from './drawing-locales';
export { drawingLogFeature } from './feature';
