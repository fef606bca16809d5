import { renderSummary, storedSummary } from './audit-summary';

describe('audit summaries', () => {
  it('stores a keyed summary and renders it in each reader’s language', () => {
    const stored = storedSummary({
      key: 'audit_summary_redemptions_created',
      params: { name: 'welcome', count: 1, quota: 500000 },
    });
    expect(renderSummary(stored, 'en')).toBe('welcome × 1, 500000 quota each');
    expect(renderSummary(stored, 'zh')).toBe('welcome × 1，每个额度 500000');
  });

  it('shows older plain-text rows, and text that only looks like a key, as written', () => {
    expect(renderSummary('gift ×2, quota 1000', 'zh')).toBe('gift ×2, quota 1000');
    expect(renderSummary('', 'en')).toBe('');
    expect(renderSummary('{"key": broken', 'en')).toBe('{"key": broken');
    expect(renderSummary('{"key":"internal_error","params":{}}', 'en')).toBe(
      '{"key":"internal_error","params":{}}',
    );
  });

  it('clips long parameters so the stored summary fits its column', () => {
    const stored = storedSummary({
      key: 'audit_summary_tag_fields',
      params: { tag: 't'.repeat(64), count: 3, fields: 'f'.repeat(200) },
    });
    expect(stored.length).toBeLessThanOrEqual(255);
    expect(renderSummary(stored, 'en')).toMatch(/^Tag t+, channels: 3, fields: f+$/);
  });
});
