import { describe, expect, it } from 'vitest';
import {
  chat2LinkUrl,
  cherryConfig,
  fillChatLink,
  parseChats,
  safeChatUrl,
  serverAddressOf,
  withKeyPrefix,
} from '../../lib/chat-links';
import { chatIndexOf } from './chat-page';
import { firstChatLink } from './chat2link-page';

describe('chat links', () => {
  it('reads the Chats option in order and drops entries that are not {name: url}', () => {
    expect(
      parseChats([
        { ChatGPT: 'https://chat.example/#/?settings={"key":"{key}","url":"{address}"}' },
        { Empty: '  ' },
        ['not', 'an', 'object'],
        null,
        { Number: 3 },
        { Lobe: 'https://lobe.example/?key={key}' },
      ]),
    ).toEqual([
      { name: 'ChatGPT', url: 'https://chat.example/#/?settings={"key":"{key}","url":"{address}"}' },
      { name: 'Lobe', url: 'https://lobe.example/?key={key}' },
    ]);
    expect(parseChats('[{"a":"b"}]')).toEqual([]);
    expect(parseChats(undefined)).toEqual([]);
  });

  it('fills every {key} with the sk- key and every {address} URL-encoded', () => {
    expect(
      fillChatLink(
        'https://c.example/?k={key}&u={address}&again={key}',
        'sk-abc',
        'https://gw.example:8443/ai',
      ),
    ).toBe('https://c.example/?k=sk-abc&u=https%3A%2F%2Fgw.example%3A8443%2Fai&again=sk-abc');
    expect(fillChatLink('https://c.example/?k={key}', 'abc', '')).toBe('https://c.example/?k=sk-abc');
    expect(withKeyPrefix('sk-x')).toBe('sk-x');
  });

  it('fills {cherryConfig} with the base64 provider config, URL-encoded, next to the other placeholders', () => {
    const filled = fillChatLink(
      'cherrystudio://providers/api-keys?v=1&data={cherryConfig}&k={key}',
      'abc',
      'https://gw.example',
    );
    const data = new URL(filled).searchParams.get('data')!;
    expect(JSON.parse(atob(data))).toEqual({
      id: 'gatehouse',
      baseUrl: 'https://gw.example',
      apiKey: 'sk-abc',
    });
    expect(filled.endsWith('&k=sk-abc')).toBe(true);
    expect(decodeURIComponent(cherryConfig('sk-abc', 'https://gw.example'))).toBe(data);
    // A template with only {cherryConfig} is a template too (chat2link fills it instead of wrapping it).
    expect(chat2LinkUrl('https://c.example/?d={cherryConfig}', 'k', 'https://gw.example')).not.toContain(
      'settings=',
    );
  });

  it('allows desktop-app links only for new tabs, and never script or data schemes', () => {
    expect(safeChatUrl('opencat://team/join?domain=x&token=sk-1')).toBeNull();
    expect(safeChatUrl('opencat://team/join?domain=x&token=sk-1', { appLinks: true })).toBe(
      'opencat://team/join?domain=x&token=sk-1',
    );
    expect(safeChatUrl('ama://set-api-key?server=x&key=sk-1', { appLinks: true })).toBe(
      'ama://set-api-key?server=x&key=sk-1',
    );
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      'file:///etc/passwd',
      'blob:x',
    ]) {
      expect(safeChatUrl(bad, { appLinks: true })).toBeNull();
    }
  });

  it('opens only http(s) links', () => {
    expect(safeChatUrl('https://c.example/a?b=1')).toBe('https://c.example/a?b=1');
    expect(safeChatUrl('javascript:alert(1)')).toBeNull();
    expect(safeChatUrl('data:text/html,<script>1</script>')).toBeNull();
    expect(safeChatUrl('not a url')).toBeNull();
  });

  it('builds the /chat2link address from a plain base or a template', () => {
    const plain = chat2LinkUrl('https://next.example/', 'sk-k1', 'https://gw.example');
    const settings = JSON.parse(decodeURIComponent(plain.split('?settings=')[1])) as unknown;
    expect(plain.startsWith('https://next.example/#/?settings=')).toBe(true);
    expect(settings).toEqual({ key: 'sk-k1', url: 'https://gw.example' });
    expect(chat2LinkUrl('https://t.example/?k={key}', 'k2', 'x')).toBe('https://t.example/?k=sk-k2');
    expect(firstChatLink({ chat_link: '', chats: [{ A: 'https://a.example' }] })).toBe('https://a.example');
    expect(firstChatLink({ chat_link: 'https://b.example', chats: [] })).toBe('https://b.example');
    expect(firstChatLink({})).toBe('');
  });

  it('picks the link of /chat/{id}: default 0, only existing indexes', () => {
    expect(chatIndexOf(undefined, 2)).toBe(0);
    expect(chatIndexOf('1', 2)).toBe(1);
    expect(chatIndexOf('2', 2)).toBeNull();
    expect(chatIndexOf('-1', 2)).toBeNull();
    expect(chatIndexOf('1.5', 2)).toBeNull();
    expect(chatIndexOf('0', 0)).toBeNull();
  });

  it('uses the configured server address, else the page origin', () => {
    expect(serverAddressOf({ server_address: 'https://gw.example/' })).toBe('https://gw.example');
    expect(serverAddressOf({ server_address: '' })).toBe(window.location.origin);
  });
});
