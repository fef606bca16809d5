import type { SystemStatus } from '../api/api-types';

/**
 * Chat links (option `Chats`, status `chats`): a list of `{"name": "url template"}`. A template may hold
 * `{key}` (the token's full key, `sk-…`), `{address}` (the server address, URL-encoded) and
 * `{cherryConfig}` (Cherry Studio's provider import: base64 of `{id, baseUrl, apiKey}`, URL-encoded) —
 * the placeholders the gateways of this family fill, so migrated `Chats` settings keep working. The
 * console opens the filled-in link in a new tab (token buttons; desktop-app links such as `opencat://`
 * too), in a frame (/chat/{id}) or goes to it (/chat2link).
 */

/** Every placeholder a template may hold. */
export const CHAT_PLACEHOLDERS = ['{key}', '{address}', '{cherryConfig}'] as const;
/** The provider id the Cherry Studio import link gives this gateway. */
export const CHERRY_PROVIDER_ID = 'gatehouse';

export interface ChatLink {
  name: string;
  url: string;
}

/** Names of the configured chat links (each `chats` entry maps one name to one URL), as the sidebar lists them. */
export function chatNames(status: Pick<SystemStatus, 'chats'> | null | undefined): string[] {
  const chats = Array.isArray(status?.chats) ? status.chats : [];
  return chats.map((entry, index) => {
    const name = entry && typeof entry === 'object' ? Object.keys(entry)[0] : undefined;
    return name || `Chat ${index + 1}`;
  });
}

/** The configured links in order; entries that are not `{name: url}` with a text URL are dropped. */
export function parseChats(chats: unknown): ChatLink[] {
  if (!Array.isArray(chats)) {
    return [];
  }
  const links: ChatLink[] = [];
  for (const entry of chats) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
      continue;
    }
    const [name] = Object.keys(entry as Record<string, unknown>);
    const url = name === undefined ? undefined : (entry as Record<string, unknown>)[name];
    if (name !== undefined && typeof url === 'string' && url.trim() !== '') {
      links.push({ name, url: url.trim() });
    }
  }
  return links;
}

/** The key as chat clients expect it: always with the `sk-` prefix. */
export function withKeyPrefix(key: string): string {
  return key.startsWith('sk-') ? key : `sk-${key}`;
}

/** Base64 of a text's UTF-8 bytes. */
function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The `{cherryConfig}` value: `{id, baseUrl, apiKey}` as base64 JSON, URL-encoded. */
export function cherryConfig(key: string, serverAddress: string): string {
  const config = { id: CHERRY_PROVIDER_ID, baseUrl: serverAddress, apiKey: withKeyPrefix(key) };
  return encodeURIComponent(base64Utf8(JSON.stringify(config)));
}

/** Fills `{key}`, `{address}` and `{cherryConfig}` into a link template. */
export function fillChatLink(template: string, key: string, serverAddress: string): string {
  let url = template;
  if (url.includes('{cherryConfig}'))
    url = url.replaceAll('{cherryConfig}', cherryConfig(key, serverAddress));
  return url
    .replaceAll('{address}', encodeURIComponent(serverAddress))
    .replaceAll('{key}', withKeyPrefix(key));
}

/** True when a template holds any placeholder. */
export function hasChatPlaceholder(template: string): boolean {
  return CHAT_PLACEHOLDERS.some((placeholder) => template.includes(placeholder));
}

/** Schemes that run or read content in the browser itself: never opened, whatever the setting says. */
const UNSAFE_SCHEMES = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'blob:',
  'about:',
  'filesystem:',
]);

/**
 * Only http(s) links may be framed or navigated to: a `javascript:` or `data:` template configured by
 * mistake must never run in the console's origin. With `appLinks` (a new tab from a token's chat button)
 * a desktop-app link (`opencat://…`, `ama://…`, `cherrystudio://…`) is allowed too. Returns the
 * normalised URL, or null.
 */
export function safeChatUrl(url: string, options: { appLinks?: boolean } = {}): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.toString();
    if (
      options.appLinks &&
      !UNSAFE_SCHEMES.has(parsed.protocol) &&
      /^[a-z][a-z0-9+.-]*:$/.test(parsed.protocol)
    )
      return parsed.toString();
    return null;
  } catch {
    return null;
  }
}

/**
 * /chat2link: the first chat link (`chat_link`), as a ChatGPT-Next-Web style settings URL when the
 * template has no placeholders, else the template filled in.
 */
export function chat2LinkUrl(base: string, key: string, serverAddress: string): string {
  if (hasChatPlaceholder(base)) {
    return fillChatLink(base, key, serverAddress);
  }
  const settings = JSON.stringify({ key: withKeyPrefix(key), url: serverAddress });
  return `${base.replace(/\/+$/, '')}/#/?settings=${encodeURIComponent(settings)}`;
}

/** The address chat clients should call: the configured server address, else the console's origin. */
export function serverAddressOf(status: { server_address?: unknown } | null | undefined): string {
  const configured = typeof status?.server_address === 'string' ? status.server_address.trim() : '';
  if (configured) {
    return configured.replace(/\/+$/, '');
  }
  return typeof window === 'undefined' ? '' : window.location.origin;
}
