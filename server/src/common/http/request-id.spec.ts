import { newRequestId } from './request-id';

describe('newRequestId', () => {
  it('is the UTC time to the second followed by 8 hex characters', () => {
    const before = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
    const id = newRequestId();
    const after = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
    expect(id).toMatch(/^\d{14}[0-9a-f]{8}$/);
    expect(id.slice(0, 14) >= before && id.slice(0, 14) <= after).toBe(true);
  });

  it('never repeats and always increases on one node (the log index takes each row at its end)', () => {
    const ids = Array.from({ length: 50_000 }, () => newRequestId());
    expect(new Set(ids).size).toBe(ids.length);
    const outOfOrder = ids.filter((id, i) => i > 0 && id <= ids[i - 1]);
    expect(outOfOrder).toEqual([]);
  });

  it('starts each second at an unpredictable point', async () => {
    const first = newRequestId();
    await new Promise((resolve) => setTimeout(resolve, 1100 - (Date.now() % 1000)));
    const second = newRequestId();
    expect(second.slice(0, 14) > first.slice(0, 14)).toBe(true);
    // A new second draws a new start: the next id is not the previous one plus one.
    expect(parseInt(second.slice(14), 16)).not.toBe(parseInt(first.slice(14), 16) + 1);
  });
});
