/** Authorization matrix rows of the channel operations (tests, balances, model lists, upstream detection). */
import type { ApiClient } from '../test-app';
import { r, type Route } from './route';

/** Disables every channel by hand, so background runs (test all, balances) have nothing to call out to. */
async function disableAll(root: ApiClient): Promise<void> {
  const list = await root.get('/api/channel/?p=1&page_size=100');
  for (const ch of (list.body.data?.items ?? []) as Array<{ id: number; status: number }>) {
    if (ch.status !== 2) await root.put('/api/channel', { id: ch.id, status: 2 });
  }
}

export const CHANNEL_OPS_ROUTES: Route[] = [
  r('get', '/api/channel/test', 'admin', { prepare: disableAll }),
  r('get', '/api/channel/test/{id}', 'admin'),
  r('get', '/api/channel/update_balance', 'admin', { prepare: disableAll }),
  r('get', '/api/channel/update_balance/{id}', 'admin'),
  r('get', '/api/channel/fetch_models/{id}', 'admin'),
  r('post', '/api/channel/fetch_models', 'admin', { body: () => ({ type: 3, key: 'matrix-key' }) }),
  r('get', '/api/channel/test_upstream/{id}', 'admin'),
];
