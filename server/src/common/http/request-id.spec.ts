import { newRequestId } from './request-id';

describe('newRequestId', () => {
  it('is the UTC time to the second followed by 8 random hex characters', () => {
    const before = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
    const id = newRequestId();
    const after = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
    expect(id).toMatch(/^\d{14}[0-9a-f]{8}$/);
    expect(id.slice(0, 14) >= before && id.slice(0, 14) <= after).toBe(true);
  });

  it('does not repeat across many ids, past the refill of its random pool', () => {
    const ids = new Set(Array.from({ length: 5000 }, () => newRequestId()));
    expect(ids.size).toBe(5000);
  });
});
