import { describe, expect, it } from 'vitest';
import { isStandaloneUrl } from './safe-html';

// sanitizeHtml and renderMarkdown are checked in a real browser (test/browser/console-account.browser.ts:
// footer, home page and about with hostile HTML): happy-dom's DOM makes DOMPurify drop good tags and
// keep event handlers, so a test here would only describe happy-dom.

describe('isStandaloneUrl', () => {
  it('recognises a lone http(s) URL only', () => {
    expect(isStandaloneUrl(' https://example.com/home ')).toBe(true);
    expect(isStandaloneUrl('http://intranet:8080/page?a=1')).toBe(true);
    expect(isStandaloneUrl('see https://example.com')).toBe(false);
    expect(isStandaloneUrl('javascript:alert(1)')).toBe(false);
    expect(isStandaloneUrl('# https://example.com')).toBe(false);
    expect(isStandaloneUrl('')).toBe(false);
  });
});
