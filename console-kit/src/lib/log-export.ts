import type { ConsoleRuntime } from '../provider/console-runtime';
import { StorageKeys } from '../provider/console-storage';
import { logQueryParams, type LogFilters } from './log-filters';

export type ExportFormat = 'csv' | 'jsonl';

/** The export of the filtered log view: every user's (admins) or the caller's own. */
export function logExportUrl(filters: LogFilters, admin: boolean, format: ExportFormat): string {
  const params = logQueryParams(filters, admin);
  params.set('format', format);
  return `${admin ? '/api/log/export' : '/api/log/self/export'}?${params.toString()}`;
}

/** The headers of a console call (the session's `New-Api-User`, or the mount's access token). */
export function consoleHeaders(runtime: ConsoleRuntime): Record<string, string> {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  const language = runtime.language();
  if (language) {
    headers['Accept-Language'] = language;
  }
  if (runtime.auth) {
    headers.Authorization = `Bearer ${runtime.auth.accessToken}`;
    headers['New-Api-User'] = String(runtime.auth.userId);
    return headers;
  }
  const user = runtime.storage.getJson<{ id?: number }>(StorageKeys.user);
  if (user?.id !== undefined && user.id !== null) {
    headers['New-Api-User'] = String(user.id);
  }
  return headers;
}

export interface ExportProgress {
  /** Rows received so far (lines; a CSV text cell holding a line break may count twice). */
  rows: number;
  /** Rows that matched when the export started (X-Total-Count), 0 when unknown. */
  total: number;
  bytes: number;
}

/** Counts line breaks in a chunk of UTF-8 bytes. */
export function countLines(chunk: Uint8Array): number {
  let n = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
    n += 1;
  }
  return n;
}

/** The progress as a percentage for a determinate bar (never 100 before the end). */
export function progressPercent(p: ExportProgress, header: boolean): number {
  if (p.total <= 0) {
    return 0;
  }
  const rows = Math.max(0, p.rows - (header ? 1 : 0));
  return Math.min(99, Math.floor((rows / p.total) * 100));
}

/** The file name the server proposes (Content-Disposition), else a default. */
export function fileNameOf(disposition: string | null, format: ExportFormat): string {
  const match = /filename="([^"]+)"/.exec(disposition ?? '');
  return match?.[1] ?? `logs.${format}`;
}

export class ExportFailed extends Error {}

/**
 * Whether an answer is the API's JSON envelope (a refusal) rather than the file: only the media type
 * `application/json` is. JSON Lines (`application/x-ndjson`) and any other type are the export itself.
 */
export function isEnvelope(contentType: string | null): boolean {
  const media = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return media === 'application/json';
}

/**
 * Downloads an export while reporting progress; resolves with the file (a Blob: the browser keeps
 * it, in memory or on disk, until it is saved). A refusal comes as the JSON envelope: its message.
 */
export async function downloadExport(
  runtime: ConsoleRuntime,
  url: string,
  format: ExportFormat,
  onProgress: (p: ExportProgress) => void,
  signal: AbortSignal,
): Promise<{ blob: Blob; name: string; rows: number }> {
  const response = await fetch(`${runtime.apiBase}${url}`, {
    credentials: 'include',
    headers: consoleHeaders(runtime),
    signal,
  });
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || isEnvelope(type) || !response.body) {
    let message = `HTTP ${response.status}`;
    try {
      const body = (await response.json()) as { message?: unknown };
      if (typeof body.message === 'string' && body.message) {
        message = body.message;
      }
    } catch {
      // not JSON: keep the status
    }
    throw new ExportFailed(message);
  }
  const total = Number(response.headers.get('x-total-count') ?? 0) || 0;
  const reader = response.body.getReader();
  const parts: BlobPart[] = [];
  const progress: ExportProgress = { rows: 0, total, bytes: 0 };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    parts.push(value);
    progress.rows += countLines(value);
    progress.bytes += value.length;
    onProgress({ ...progress });
  }
  return {
    blob: new Blob(parts, { type: type.split(';')[0] }),
    name: fileNameOf(response.headers.get('content-disposition'), format),
    rows: Math.max(0, progress.rows - (format === 'csv' ? 1 : 0)),
  };
}

/** Hands a file to the browser's download. */
export function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = name;
  anchor.style.display = 'none';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
