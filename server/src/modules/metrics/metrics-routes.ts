import type { FastifyInstance } from 'fastify';
import type { MetricsService } from './metrics.service';

/**
 * `GET /metrics`, mounted on Fastify outside Nest (no session, no envelope: Prometheus reads plain text).
 * Off (404) unless configured: METRICS_TOKEN turns it on and asks for `Authorization: Bearer <token>`;
 * METRICS_ENABLED=true without a token opens it (the operator keeps it off the public network, see
 * docs/metrics.md). METRICS_ENABLED=false: 404 even with a token.
 */
export function metricsRoutes(metrics: MetricsService) {
  return async (f: FastifyInstance): Promise<void> => {
    // Disabled: a plain 404 (not the console page that unknown GET paths fall back to).
    if (!metrics.enabled) {
      f.get('/metrics', (_req, reply) =>
        reply.code(404).type('text/plain; charset=utf-8').send('Not Found\n'),
      );
      return;
    }
    f.get('/metrics', async (req, reply) => {
      if (!metrics.authorized(req.headers.authorization))
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .type('text/plain; charset=utf-8')
          .send('Unauthorized\n');
      const text = await metrics.exposition();
      return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
    });
  };
}
