import { describe, expect, it } from 'vitest';
import { dashboardLocales } from '../features/dashboard/dashboard-locales';
import { GRANULARITIES } from '../features/dashboard/dashboard-rules';
import { drawingLocales } from '../features/drawing-log/drawing-locales';
import { DRAWING_ACTIONS, DRAWING_STATUSES } from '../features/drawing-log/drawing-rules';
import { taskLocales } from '../features/task-log/task-locales';
import { keysOf, localeProblems } from './locale-keys';
import { KNOWN_OTHER_KEYS, LOG_COLUMNS, LOG_TYPE_KEYS } from '../features/logs/log-rules';
import { logsLocales } from '../features/logs/logs-locales';

describe('log and dashboard strings', () => {
  it.each([
    ['logs', logsLocales],
    ['drawing log', drawingLocales],
    ['task log', taskLocales],
    ['dashboard', dashboardLocales],
  ] as const)('%s has every string in Chinese and English, none blank', (_name, bundles) => {
    expect(localeProblems(bundles)).toEqual({ missing: [], blank: [] });
  });

  it('names every other key, column, type, action, status and granularity the screens look up', () => {
    const logs = new Set(keysOf(logsLocales.en));
    const needed = [
      ...KNOWN_OTHER_KEYS.filter((key) => key !== 'admin_info').map((key) => `other.${key}`),
      'other.use_channel',
      ...LOG_COLUMNS.map((column) => `columns.${column}`),
      ...Object.values(LOG_TYPE_KEYS).map((key) => `type.${key}`),
      'type.unknown',
    ];
    expect(needed.filter((key) => !logs.has(key))).toEqual([]);
    const drawing = new Set(keysOf(drawingLocales.en));
    expect(
      [...DRAWING_ACTIONS.map((a) => `action.${a}`), ...DRAWING_STATUSES.map((s) => `status.${s}`)].filter(
        (key) => !drawing.has(key),
      ),
    ).toEqual([]);
    const dashboard = new Set(keysOf(dashboardLocales.zh));
    expect(GRANULARITIES.filter((g) => !dashboard.has(`granularity.${g}`))).toEqual([]);
  });
});
