/**
 * The log module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/log/ is the module's own.
 */
export { LogApiModule } from './log-api.module';
export { applyLogFilter, parseLogFilter, text, timestamp } from './log-query';
export type { LogFilter } from './log-query';
export type { LogText } from './log-text';
export { logTextColumns } from './log-text';
export { LogModule } from './log.module';
export { LogService } from './log.service';
export { ContentLogModule } from './content/content-log.module';
export { ContentLogService } from './content/content-log.service';
export type { CapturedAnswer, ContentCall } from './content/content-log.service';
export type { ContentTap } from './content/content-tap';
