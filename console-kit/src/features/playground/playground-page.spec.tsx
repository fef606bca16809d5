import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer, jsonResponse } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { PlaygroundPage } from './playground-page';
import { playgroundLocales } from './playground-locales';

vi.setConfig({ testTimeout: 20_000 });

const me = { id: 7, username: 'pat', display_name: 'Pat', role: 1, status: 1, group: 'default' };

function sse(events: string[]): Response {
  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const event of events) {
          controller.enqueue(encoder.encode(`data: ${event}\n\n`));
        }
        controller.close();
      },
    }),
    { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
  );
}
const delta = (content: string) => JSON.stringify({ choices: [{ delta: { content } }] });

function serve(chat: (request: Request) => Response) {
  window.localStorage.setItem('user', JSON.stringify(me));
  return installFakeServer({
    'GET /api/status': () => envelope({ setup: true }),
    'GET /api/user/self/groups': () =>
      envelope({ default: { ratio: 1, desc: 'Default' }, vip: { ratio: 2, desc: 'VIP' } }),
    'GET /api/user/models': (request) =>
      envelope(new URL(request.url).searchParams.get('group') === 'vip' ? ['o1'] : ['gpt-4o', 'gpt-4o-mini']),
    'POST /pg/chat/completions': chat,
  });
}

const answers = () => screen.getAllByTestId('chat-message').filter((m) => m.dataset.role === 'assistant');

describe('PlaygroundPage', () => {
  // Sanitizing is checked in Chromium (test/browser/console-pricing-playground.browser.ts): happy-dom's
  // DOM keeps event handlers through DOMPurify, so asserting it here would only describe happy-dom.
  it('streams a markdown answer with the defaults and without temperature or max_tokens', async () => {
    const server = serve(() => sse([delta('**bold**'), delta(' and more'), '[DONE]']));
    renderInConsole(<PlaygroundPage />, { path: '/playground' });
    await waitFor(() => expect(server.requests.some((r) => r.path === '/api/user/models')).toBe(true));
    await screen.findByDisplayValue('gpt-4o-mini');
    await userEvent.type(screen.getByLabelText(/Type a message/), 'hello{Enter}');

    await waitFor(() => expect(answers()[0].dataset.status).toBe('complete'));
    const answer = screen.getByTestId('chat-answer');
    expect(answer.querySelector('strong')?.textContent).toBe('bold');
    expect(answer.textContent).toContain('and more');

    const call = server.requests.find((r) => r.path === '/pg/chat/completions');
    expect(call?.body).toEqual({
      model: 'gpt-4o-mini',
      group: 'default',
      stream: true,
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'hello' },
      ],
    });
    expect(call?.request.headers.get('New-Api-User')).toBe('7');
  });

  it('shows a refusal on the answer and clears the context', async () => {
    serve(() => jsonResponse({ error: { message: 'user quota is not enough', type: 'x' } }, 403));
    renderInConsole(<PlaygroundPage />, { path: '/playground' });
    await screen.findByDisplayValue('gpt-4o-mini');
    await userEvent.type(screen.getByLabelText(/Type a message/), 'hi');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(answers()[0].dataset.status).toBe('error'));
    expect(screen.getByText('user quota is not enough')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Clear context' }));
    expect(screen.queryAllByTestId('chat-message')).toHaveLength(0);
  });

  it('reloads the models of another group and sends the settings once set', async () => {
    const server = serve(() => sse([delta('ok'), '[DONE]']));
    renderInConsole(<PlaygroundPage />, { path: '/playground' });
    await screen.findByDisplayValue('gpt-4o-mini');
    await userEvent.click(screen.getByRole('combobox', { name: 'Group' }));
    // The ratio tag is coloured by the spec's thresholds: ×2 is blue (above 1).
    const vip = await screen.findByRole('option', { name: /^vip \(VIP\)/ });
    expect(within(vip).getByText('×2').closest('.MuiChip-root')?.className).toContain('Primary');
    await userEvent.click(vip);
    await screen.findByDisplayValue('o1');
    const maxTokens = screen.getByLabelText('Max tokens');
    await userEvent.clear(maxTokens);
    await userEvent.type(maxTokens, '64');
    await userEvent.type(screen.getByLabelText(/Type a message/), 'go{Enter}');
    await waitFor(() => expect(answers()[0].dataset.status).toBe('complete'));
    const call = server.requests.find((r) => r.path === '/pg/chat/completions');
    expect(call?.body).toMatchObject({ model: 'o1', group: 'vip', max_tokens: 64 });
    expect(call?.body).not.toHaveProperty('temperature');
  });

  it('says the session expired when asked to', async () => {
    serve(() => sse(['[DONE]']));
    renderInConsole(<PlaygroundPage />, { path: '/playground?expired=true', route: '/playground' });
    expect(await screen.findByText('Not logged in or session expired. Please login again!')).toBeTruthy();
  });
});

describe('playground strings', () => {
  it('exist in both languages', () => {
    const keys = (node: object, prefix = ''): string[] =>
      Object.entries(node).flatMap(([key, value]) =>
        typeof value === 'string' ? [`${prefix}${key}`] : keys(value as object, `${prefix}${key}.`),
      );
    expect(keys(playgroundLocales.en).sort()).toEqual(keys(playgroundLocales.zh).sort());
  });
});
