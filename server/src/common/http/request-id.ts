import { randomFillSync } from 'node:crypto';

export const REQUEST_ID_HEADER = 'X-Oneapi-Request-Id';

// Random hex drawn in bulk: one CSPRNG call per 1024 requests instead of one per request.
const ID_POOL = Buffer.alloc(4096);
let poolHex = '';
let hexOffset = 0;
function randomHex8(): string {
  if (hexOffset + 8 > poolHex.length) {
    randomFillSync(ID_POOL);
    poolHex = ID_POOL.toString('hex');
    hexOffset = 0;
  }
  hexOffset += 8;
  return poolHex.slice(hexOffset - 8, hexOffset);
}

// The time part changes once a second: built once per second.
let prefixSecond = -1;
let prefix = '';

/** yyyyMMddHHmmss + 8 random hex characters: sortable and unique enough to find a request in the logs. */
export function newRequestId(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== prefixSecond) {
    prefixSecond = second;
    prefix = new Date(second * 1000).toISOString().slice(0, 19).replace(/[-:T]/g, '');
  }
  return prefix + randomHex8();
}
