/**
 * The metrics module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/metrics/ is the module's own.
 */
export { metricsRoutes } from './metrics-routes';
export { MetricsModule } from './metrics.module';
export { MetricsService } from './metrics.service';
