import { vi } from 'vitest';

export type FakeRoute = (request: Request) => Response | Promise<Response>;

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export function envelope(data: unknown, message = ''): Response {
  return jsonResponse({ success: true, message, data });
}

export function refusal(message: string): Response {
  return jsonResponse({ success: false, message });
}

/**
 * Replaces global fetch with a router keyed by "METHOD /path". Unknown routes answer 404 so that a
 * test notices a call it did not expect. Every request is recorded with its body already read.
 */
export function installFakeServer(routes: Record<string, FakeRoute>) {
  const requests: { method: string; path: string; request: Request; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const text = request.method === 'GET' ? '' : await request.clone().text();
    requests.push({
      method: request.method,
      path: url.pathname,
      request,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    });
    const route = routes[`${request.method} ${url.pathname}`];
    return route ? route(request) : jsonResponse({ success: false, message: 'not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requests, fetchMock };
}
