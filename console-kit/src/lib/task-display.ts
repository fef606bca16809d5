/** "45%" → 45; anything unreadable → 0; clamped to 0–100. */
export function progressPercent(progress: string | number | null | undefined): number {
  const value = typeof progress === 'number' ? progress : parseFloat(String(progress ?? '').replace('%', ''));
  if (!Number.isFinite(value)) {
    return 0;
  }
  return Math.min(100, Math.max(0, value));
}

/** docs/decisions.md#task-logs: the duration chip is red above 60 s, else green. */
export function durationColor(seconds: number): 'error' | 'success' {
  return seconds > 60 ? 'error' : 'success';
}

const CHANNEL_COLORS = ['primary', 'secondary', 'success', 'info', 'warning', 'error'] as const;

/** A stable colour per channel id. */
export function channelColor(channelId: number): (typeof CHANNEL_COLORS)[number] {
  return CHANNEL_COLORS[Math.abs(channelId) % CHANNEL_COLORS.length];
}
