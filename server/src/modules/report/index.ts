/**
 * The report module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/report/ is the module's own.
 */
export { ReportModule } from './report.module';
