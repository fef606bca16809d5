import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import { marked } from 'marked';

/**
 * Site text written by admins (home page, about, footer, notice) is shown as HTML, so it goes through
 * DOMPurify with a fixed safe subset: text formatting, headings, lists, tables, quotes, code, links and
 * images. Never scripts, styles, forms, frames, event handlers, `style` attributes or `javascript:`
 * URLs. Links that leave the page open in a new tab without access to it (`rel="noopener noreferrer"`).
 * A URL alone is not HTML: callers show it in an iframe instead (see {@link isStandaloneUrl}).
 */
export const SAFE_HTML_TAGS = [
  'a',
  'abbr',
  'b',
  'blockquote',
  'br',
  'code',
  'del',
  'details',
  'div',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'kbd',
  'li',
  'mark',
  'ol',
  'p',
  'pre',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'u',
  'ul',
];

export const SAFE_HTML_ATTRIBUTES = [
  'href',
  'title',
  'target',
  'rel',
  'src',
  'alt',
  'width',
  'height',
  'align',
  'colspan',
  'rowspan',
  'start',
  'open',
];

const CONFIG: Config = {
  ALLOWED_TAGS: SAFE_HTML_TAGS,
  ALLOWED_ATTR: SAFE_HTML_ATTRIBUTES,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

let purifier: DOMPurify | null = null;

/** A private DOMPurify instance: our hook must not change how a portal's own DOMPurify behaves. */
function getPurifier(): DOMPurify | null {
  if (purifier) {
    return purifier;
  }
  if (typeof window === 'undefined') {
    return null;
  }
  const instance = createDOMPurify(window);
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      const href = node.getAttribute('href') ?? '';
      if (/^https?:\/\//i.test(href)) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      } else if (node.getAttribute('target') === '_blank') {
        node.setAttribute('rel', 'noopener noreferrer');
      }
    }
  });
  purifier = instance;
  return purifier;
}

/** Keeps the safe subset of `html`. Without a DOM (server rendering) nothing is trusted: ''. */
export function sanitizeHtml(html: string): string {
  const instance = getPurifier();
  return instance ? instance.sanitize(html, CONFIG) : '';
}

/** Markdown (which may embed HTML) to safe HTML. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: true });
  return sanitizeHtml(html);
}

export { isStandaloneUrl } from './standalone-url';
