import { randomFillSync } from 'node:crypto';

export const REQUEST_ID_HEADER = 'X-Oneapi-Request-Id';

// Random bytes drawn in bulk: one CSPRNG call per 1024 requests instead of one per request.
const ID_POOL = Buffer.alloc(4096);
let idOffset = ID_POOL.length;
function randomHex4(): string {
  if (idOffset + 4 > ID_POOL.length) {
    randomFillSync(ID_POOL);
    idOffset = 0;
  }
  idOffset += 4;
  return ID_POOL.toString('hex', idOffset - 4, idOffset);
}

/** yyyyMMddHHmmss + 8 random hex characters: sortable and unique enough to find a request in the logs. */
export function newRequestId(): string {
  const d = new Date();
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return (
    `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}` +
    `${p(d.getUTCSeconds())}${randomHex4()}`
  );
}
