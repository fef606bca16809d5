import { Registry } from 'prom-client';
import type { AppConfig } from '../../config/app-config';
import { CounterFamily, HistogramFamily, register } from './metric-families';
import { MetricsService, OTHER_MODEL } from './metrics.service';

const service = (metrics: AppConfig['metrics']) => new MetricsService({ metrics } as AppConfig);

describe('metric families', () => {
  it('render counters and cumulative histogram buckets in the Prometheus text format', async () => {
    const registry = new Registry();
    const c = new CounterFamily('t_requests_total', 'Requests.');
    const h = new HistogramFamily('t_latency_seconds', 'Latency.', [0.1, 1]);
    register(registry, c);
    register(registry, h);
    c.at('a', () => ({ route: '/x/:id', status: '200' })).value += 2;
    c.at('a', () => ({ route: 'unused', status: 'unused' })).value++;
    const s = h.at('k', () => ({ channel: '7' }));
    for (const v of [0.05, 0.1, 0.5, 3]) h.observe(s, v);
    expect(await registry.metrics()).toBe(
      [
        '# HELP t_requests_total Requests.',
        '# TYPE t_requests_total counter',
        't_requests_total{route="/x/:id",status="200"} 3',
        '',
        '# HELP t_latency_seconds Latency.',
        '# TYPE t_latency_seconds histogram',
        't_latency_seconds_bucket{channel="7",le="0.1"} 2',
        't_latency_seconds_bucket{channel="7",le="1"} 3',
        't_latency_seconds_bucket{channel="7",le="+Inf"} 4',
        't_latency_seconds_sum{channel="7"} 3.65',
        't_latency_seconds_count{channel="7"} 4',
        '',
      ].join('\n'),
    );
  });
});

describe('MetricsService', () => {
  it('accepts any Authorization without a token, and only `Bearer <token>` with one', () => {
    expect(service({ enabled: true, token: null }).authorized(undefined)).toBe(true);
    const m = service({ enabled: true, token: 's3cret-token' });
    expect(m.authorized('Bearer s3cret-token')).toBe(true);
    expect(m.authorized('bearer   s3cret-token ')).toBe(true);
    for (const bad of [
      undefined,
      '',
      'Bearer',
      'Bearer s3cret-tokeN',
      'Bearer s3cret-token2',
      'Basic s3cret-token',
      's3cret-token',
      'Bearer s3cret token',
    ])
      expect([bad, m.authorized(bad)]).toEqual([bad, false]);
  });

  it('gives a label only to models the catalog knows, and re-asks after a scrape', async () => {
    const m = service({ enabled: true, token: null });
    const known = new Set(['gpt-4o']);
    m.useModelCatalog((model) => known.has(model));
    expect(m.modelLabel('gpt-4o')).toBe('gpt-4o');
    expect(m.modelLabel('gpt-4o-anything')).toBe(OTHER_MODEL);
    expect(m.modelLabel('')).toBe(OTHER_MODEL);
    known.add('gpt-4o-anything');
    expect(m.modelLabel('gpt-4o-anything')).toBe(OTHER_MODEL); // decided once until the next scrape
    await m.exposition();
    expect(m.modelLabel('gpt-4o-anything')).toBe('gpt-4o-anything');
  });

  it('keeps one series per label set however many requests are recorded', async () => {
    const m = service({ enabled: true, token: null });
    m.useModelCatalog((model) => model === 'gpt-4o');
    for (let i = 0; i < 1000; i++) {
      m.relayRequest('openai', 'chat', i % 2 ? 'gpt-4o' : `random-${i}`, 3, 200);
      m.http('GET', '/api/channel/:id', 200, 1.5);
    }
    const text = await m.exposition();
    const lines = text.split('\n').filter((l) => l.startsWith('gatehouse_relay_requests_total{'));
    expect(lines.sort()).toEqual([
      'gatehouse_relay_requests_total{format="openai",endpoint="chat",model="gpt-4o",channel="3",status="200"} 500',
      'gatehouse_relay_requests_total{format="openai",endpoint="chat",model="other",channel="3",status="200"} 500',
    ]);
    expect(text).toContain(
      'gatehouse_http_requests_total{method="GET",route="/api/channel/:id",status="200"} 1000',
    );
    expect(text).toContain(
      'gatehouse_http_request_duration_seconds_bucket{method="GET",route="/api/channel/:id",status="200",le="0.005"} 1000',
    );
  });

  it('tracks active streams until they settle, failed ones included', async () => {
    const m = service({ enabled: true, token: null });
    let finish!: () => void;
    const ok = m.trackStream(new Promise<void>((r) => (finish = r)));
    const failed = m.trackStream(Promise.reject(new Error('cut')));
    expect([m.activeStreams, m.streamsTotal]).toEqual([2, 2]);
    await expect(failed).rejects.toThrow('cut');
    finish();
    await ok;
    expect([m.activeStreams, m.streamsTotal]).toEqual([0, 2]);
  });
});
