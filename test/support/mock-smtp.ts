import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { ApiClient } from './test-app';

export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  /** The decoded body (HTML for the mails the server sends). */
  body: string;
  raw: string;
  auth: { username: string; password: string } | null;
}

/** Decodes a MIME encoded-word header value (=?UTF-8?B?...?= / =?UTF-8?Q?...?=). */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

function decodeQuotedPrintable(s: string): string {
  const bytes = s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return headers;
}

/** Decodes a single-part message, or the text/html part of a multipart one. */
function decodeBody(headers: Map<string, string>, body: string): string {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const parts = body.split(`--${boundary}`).slice(1, -1);
    const decoded = parts.map((p) => {
      const split = p.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      return { headers: parseHeaders(split[0]), body: split.slice(1).join('\n\n') };
    });
    const html = decoded.find((p) => /text\/html/i.test(p.headers.get('content-type') ?? '')) ?? decoded[0];
    return html ? decodeBody(html.headers, html.body) : '';
  }
  const cte = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
  if (cte === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (cte === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

function parseMail(
  raw: string,
  envelope: { from: string; to: string[] },
  auth: CapturedMail['auth'],
): CapturedMail {
  const sep = /\r?\n\r?\n/.exec(raw);
  const headerBlock = sep ? raw.slice(0, sep.index) : raw;
  const body = sep ? raw.slice(sep.index + sep[0].length) : '';
  const headers = parseHeaders(headerBlock);
  return {
    ...envelope,
    subject: decodeHeader(headers.get('subject') ?? ''),
    body: decodeBody(headers, body),
    raw,
    auth,
  };
}

/**
 * A real SMTP server on a random local port (plain text, no STARTTLS, any credentials accepted) that
 * keeps every message it receives, so tests can read the codes and links the product emails.
 */
export class MockSmtp {
  readonly messages: CapturedMail[] = [];
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(): Promise<MockSmtp> {
    let mock: MockSmtp | null = null;
    const server = new SMTPServer({
      secure: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      // The credentials are kept as the session's user, so each message records what it was sent with.
      onAuth(auth, _session, cb) {
        cb(null, { user: JSON.stringify({ username: auth.username ?? '', password: auth.password ?? '' }) });
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const envelope = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
          };
          const auth = session.user ? (JSON.parse(String(session.user)) as CapturedMail['auth']) : null;
          mock?.push(parseMail(Buffer.concat(chunks).toString('utf8'), envelope, auth));
          cb();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const port = (server.server.address() as AddressInfo).port;
    mock = new MockSmtp(server, port);
    return mock;
  }

  private push(mail: CapturedMail): void {
    this.messages.push(mail);
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Messages addressed to `to` (case-insensitive), oldest first. */
  to(to: string): CapturedMail[] {
    return this.messages.filter((m) => m.to.some((r) => r.toLowerCase() === to.toLowerCase()));
  }

  /** Waits until `count` messages to `to` have arrived and returns the last of them. */
  async waitFor(to: string, count = 1, timeoutMs = 10_000): Promise<CapturedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const got = this.to(to);
      if (got.length >= count) return got[count - 1];
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail #${count} to ${to} within ${timeoutMs} ms (got ${got.length})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The 6-digit code of the newest mail to `to`. */
  async codeFor(to: string, count = 1): Promise<string> {
    const mail = await this.waitFor(to, count);
    const m = /\b(\d{6})\b/.exec(mail.body.replace(/<[^>]+>/g, ' '));
    if (!m) throw new Error(`no 6-digit code in mail to ${to}: ${mail.body}`);
    return m[1];
  }

  /** Points the app's SMTP options at this server (root only may change them). */
  async configure(
    root: ApiClient,
    opts: { account?: string; token?: string; from?: string } = {},
  ): Promise<void> {
    const options: Array<[string, string]> = [
      ['SMTPServer', '127.0.0.1'],
      ['SMTPPort', String(this.port)],
      ['SMTPSSLEnabled', 'false'],
      ['SMTPAccount', opts.account ?? 'mailer@gatehouse.test'],
      ['SMTPFrom', opts.from ?? 'noreply@gatehouse.test'],
      ['SMTPToken', opts.token ?? 'smtp-secret-token'],
    ];
    for (const [key, value] of options) {
      const res = await root.put('/api/option/', { key, value });
      if (!res.body.success) throw new Error(`set ${key}: ${res.body.message}`);
    }
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
