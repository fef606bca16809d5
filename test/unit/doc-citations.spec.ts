/**
 * Code comments cite settled decisions as `docs/decisions.md#<anchor>`, so a reader with a fresh clone can
 * follow them: every cited anchor must exist, and no comment may cite a document that is not in the
 * repository ("decision 12", "spec part 2 §9", "contract.md").
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '../..');
const SOURCES = ['server/src', 'migrations', 'test', 'console-kit/src', 'host-app/src'];
const SKIP = new Set(['node_modules', 'dist', '.test-out']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mjs)$/.test(name) ? [path] : [];
  });
}

/** The comment text of a source file: line comments and block comments. */
function comments(text: string): string[] {
  return text.match(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g) ?? [];
}

const files = SOURCES.flatMap((dir) => sourceFiles(join(root, dir))).filter(
  (f) => !f.endsWith('doc-citations.spec.ts'),
);
const anchors = new Set(
  [...readFileSync(join(root, 'docs/decisions.md'), 'utf8').matchAll(/<a id="([a-z0-9-]+)"><\/a>/g)].map(
    (m) => m[1],
  ),
);

describe('citations in code comments', () => {
  it('reads the sources and the decisions page', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(anchors.size).toBeGreaterThan(40);
  });

  it('point at anchors that exist in docs/decisions.md', () => {
    const missing = files.flatMap((file) =>
      comments(readFileSync(file, 'utf8')).flatMap((c) =>
        [...c.matchAll(/decisions\.md#([a-z0-9-]+)/g)]
          .filter((m) => !anchors.has(m[1]))
          .map((m) => `${relative(root, file)}: #${m[1]}`),
      ),
    );
    expect(missing).toEqual([]);
  });

  it('never cite documents outside the repository', () => {
    const outside =
      /\b(decisions?\s+#?\d+|spec(\s+part\s+\d+)?\s*§|part\s+\d+\s+§|§\s*\d|contract\.md|shared\/docs)/i;
    const found = files.flatMap((file) =>
      comments(readFileSync(file, 'utf8'))
        .filter((c) => outside.test(c))
        .map((c) => `${relative(root, file)}: ${c.slice(0, 120)}`),
    );
    expect(found).toEqual([]);
  });
});
