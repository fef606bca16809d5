import type { UsageCounts } from '../types';

/** What an answered attempt leaves for settlement. */
export interface Outcome {
  usage: UsageCounts;
  firstTokenMs: number;
  extra: Record<string, unknown>;
}
