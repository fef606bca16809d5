import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/app-config';
import type { MailService } from '../mail';
import type { OptionService } from '../option';
import type { UserSnapshot } from '../user';
import { BudgetParty, BudgetService, localTime } from './budget.service';

/** A data source any use of which fails the test: the no-budget path must not touch the database. */
const noDatabase = new Proxy(
  {},
  {
    get(_t, name) {
      throw new Error(`the database was used (${String(name)})`);
    },
  },
) as unknown as DataSource;

function service(groupBudgets = '{}'): BudgetService {
  const options = {
    get: (key: string) => (key === 'GroupBudgets' ? groupBudgets : key === 'TimeZone' ? 'Asia/Shanghai' : ''),
    num: () => 0,
  } as unknown as OptionService;
  return new BudgetService(noDatabase, {} as AppConfig, options, {} as MailService);
}

const party = (over: Partial<BudgetParty> = {}): BudgetParty => ({
  token: { id: 7, budget: null },
  user: { id: 3, budget: null } as unknown as UserSnapshot & { budget: null },
  group: 'default',
  ...over,
});

describe('BudgetService without budgets', () => {
  it('admits a call with no budget on its token, user or group without touching the database', async () => {
    const svc = service('{"vip": {"day": {"quota": 10, "requests": 0}}}');
    expect(svc.applies(party())).toBe(false);
    let estimated = false;
    await expect(
      svc.admit(party(), () => {
        estimated = true;
        return 1;
      }),
    ).resolves.toBeNull();
    // The estimate (the tokenizer) is not even run.
    expect(estimated).toBe(false);
    await svc.settle(null, 100);
    svc.release(undefined);
    await svc.flush();
  });

  it('sees the budget of a token, a user or the call’s group', () => {
    const svc = service('{"vip": {"day": {"quota": 10, "requests": 0}}}');
    expect(svc.applies(party({ token: { id: 7, budget: { day: { quota: 1, requests: 0 } } } }))).toBe(true);
    expect(
      svc.applies(party({ user: { id: 3, budget: { month: { quota: 0, requests: 5 } } } as never })),
    ).toBe(true);
    expect(svc.applies(party({ group: 'vip' }))).toBe(true);
  });

  it('reads a changed GroupBudgets option at once', () => {
    let raw = '{}';
    const options = {
      get: (key: string) => (key === 'GroupBudgets' ? raw : ''),
      num: () => 0,
    } as unknown as OptionService;
    const svc = new BudgetService(noDatabase, {} as AppConfig, options, {} as MailService);
    expect(svc.applies(party())).toBe(false);
    raw = '{"default": {"week": {"quota": 0, "requests": 3}}}';
    expect(svc.applies(party())).toBe(true);
    expect(svc.groupBudget('default')).toEqual({ week: { quota: 0, requests: 3 } });
  });
});

describe('localTime', () => {
  it('writes an instant as wall time in the zone', () => {
    expect(localTime('Asia/Shanghai', Date.UTC(2026, 10, 25, 16, 0, 0) / 1000)).toBe('2026-11-26 00:00');
    expect(localTime('UTC', Date.UTC(2026, 11, 1) / 1000)).toBe('2026-12-01 00:00');
  });
});
