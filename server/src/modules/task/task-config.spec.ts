import { loadTaskConfig, TaskConfigError } from './task-config';

describe('task polling settings', () => {
  it('defaults to a 15 s poll and a one-hour timeout', () => {
    expect(loadTaskConfig({})).toEqual({ pollIntervalMs: 15_000, timeoutMs: 3_600_000 });
  });

  it('reads seconds, decimals allowed; 0 turns polling off', () => {
    expect(loadTaskConfig({ TASK_POLL_INTERVAL: '0.2', TASK_TIMEOUT: '90' })).toEqual({
      pollIntervalMs: 200,
      timeoutMs: 90_000,
    });
    expect(loadTaskConfig({ TASK_POLL_INTERVAL: '0' }).pollIntervalMs).toBe(0);
  });

  it('refuses values that are not seconds or out of range', () => {
    for (const v of ['abc', '-1', '1e3', '0.01', '100000', ' 5s'])
      expect(() => loadTaskConfig({ TASK_POLL_INTERVAL: v })).toThrow(TaskConfigError);
    expect(() => loadTaskConfig({ TASK_TIMEOUT: '0.5' })).toThrow(TaskConfigError);
  });
});
