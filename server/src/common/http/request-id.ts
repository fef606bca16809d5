import { randomInt } from 'node:crypto';

export const REQUEST_ID_HEADER = 'X-Oneapi-Request-Id';

// The time part changes once a second: built once per second.
let prefixSecond = -1;
let prefix = '';
/** This second's sequence: starts at a random point each second, then counts up. */
let sequence = 0;

/**
 * yyyyMMddHHmmss + 8 hex characters: sortable and unique enough to find a request in the logs.
 *
 * The hex part counts up from a random start drawn each second (below 2^31, so it cannot wrap within
 * the second), not a fresh random value per id: the ids of one node then never repeat and always
 * increase, so the consume log's request-id index takes each new row at its end. Random suffixes
 * scattered every batch of log rows over the whole second's range of that index, about a hundred
 * pages per batch more to write and to checkpoint (half the write-ahead log's volume under load).
 * Other nodes draw their own starts: two nodes collide only when their ranges of one second overlap
 * at the same number.
 */
export function newRequestId(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== prefixSecond) {
    prefixSecond = second;
    prefix = new Date(second * 1000).toISOString().slice(0, 19).replace(/[-:T]/g, '');
    sequence = randomInt(0x80000000);
  }
  sequence++;
  return prefix + sequence.toString(16).padStart(8, '0');
}
