/**
 * The task module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/task/ is the module's own.
 */
export { TaskModule } from './task.module';
