/** Task ids asked from an upstream per call. */
export const POLL_BATCH = 100;
/** Unfinished tasks looked at per poll and platform (oldest first). */
export const POLL_LIMIT = 1000;
