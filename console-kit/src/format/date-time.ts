import dayjs from 'dayjs';

/**
 * A moment as the console writes it on every page, whatever the browser's locale: `2026-11-26 01:15:06`
 * in the reader's time zone (the same in Chinese and English, as the usage logs show it). Unix seconds
 * in; 0 or a missing time gives ''.
 */
export function formatDateTime(seconds: number | null | undefined): string {
  return seconds ? dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss') : '';
}
