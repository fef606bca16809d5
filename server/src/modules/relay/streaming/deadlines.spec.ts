import { TICK_MS, unwatch, watch, type Deadline } from './deadlines';

describe('stream deadlines (one shared timer)', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => {
    // Every test leaves nothing watched: the next tick stops the shared timer before the clock is swapped.
    jest.advanceTimersByTime(TICK_MS);
    expect(jest.getTimerCount()).toBe(0);
    jest.useRealTimers();
  });

  const deadline = (inMs: number) => {
    const d: Deadline & { expired: number } = {
      at: Date.now() + inMs,
      expired: 0,
      expire: () => void d.expired++,
      slot: -1,
    };
    return d;
  };

  it('expires a deadline once, within one tick after it passes', () => {
    const d = deadline(250);
    watch(d);
    jest.advanceTimersByTime(200);
    expect(d.expired).toBe(0);
    jest.advanceTimersByTime(TICK_MS);
    expect(d.expired).toBe(1);
    jest.advanceTimersByTime(10 * TICK_MS);
    expect(d.expired).toBe(1);
  });

  it('a deadline moved forward (an event came) waits for its new time', () => {
    const d = deadline(250);
    watch(d);
    jest.advanceTimersByTime(200);
    d.at = Date.now() + 250;
    jest.advanceTimersByTime(200);
    expect(d.expired).toBe(0);
    jest.advanceTimersByTime(2 * TICK_MS);
    expect(d.expired).toBe(1);
  });

  it('never expires an unwatched deadline or one set to Infinity', () => {
    const gone = deadline(100);
    const never = deadline(0);
    never.at = Infinity;
    watch(gone);
    watch(never);
    unwatch(gone);
    jest.advanceTimersByTime(20 * TICK_MS);
    expect(gone.expired).toBe(0);
    expect(never.expired).toBe(0);
    unwatch(never);
  });

  it('removes from the middle without losing the others', () => {
    const list = [300, 300, 300, 300].map(deadline);
    list.forEach(watch);
    unwatch(list[1]);
    unwatch(list[1]);
    unwatch(list[0]);
    jest.advanceTimersByTime(400);
    expect(list.map((d) => d.expired)).toEqual([0, 0, 1, 1]);
    expect(list.map((d) => d.slot)).toEqual([-1, -1, -1, -1]);
  });

  it('watches many at once and stops its timer when none is left', () => {
    const list = [100, 300, 500].map(deadline);
    list.forEach(watch);
    jest.advanceTimersByTime(350);
    expect(list.map((d) => d.expired)).toEqual([1, 1, 0]);
    jest.advanceTimersByTime(200);
    expect(list.map((d) => d.expired)).toEqual([1, 1, 1]);
    jest.advanceTimersByTime(TICK_MS);
    expect(jest.getTimerCount()).toBe(0);
  });
});
