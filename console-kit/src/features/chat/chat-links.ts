/**
 * Chat links (option `Chats`, status `chats`): a list of `{"name": "url template"}`. A template may hold
 * `{key}` (the token's full key, `sk-…`) and `{address}` (the server address, URL-encoded). The console
 * opens the filled-in link in a new tab (token buttons), in a frame (/chat/{id}) or goes to it
 * (/chat2link).
 */

export interface ChatLink {
  name: string;
  url: string;
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

/** Fills `{key}` and `{address}` into a link template. */
export function fillChatLink(template: string, key: string, serverAddress: string): string {
  return template
    .replaceAll('{address}', encodeURIComponent(serverAddress))
    .replaceAll('{key}', withKeyPrefix(key));
}

/**
 * Only http(s) links may be opened or framed: a `javascript:` or `data:` template configured by mistake
 * must never run in the console's origin. Returns the normalised URL, or null.
 */
export function safeChatUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/**
 * /chat2link: the first chat link (`chat_link`), as a ChatGPT-Next-Web style settings URL when the
 * template has no placeholders, else the template filled in.
 */
export function chat2LinkUrl(base: string, key: string, serverAddress: string): string {
  if (base.includes('{key}') || base.includes('{address}')) {
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
