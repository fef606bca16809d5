/**
 * The server's import graph runs one way. Read with dpdm (as `npm run lint:cycles` does):
 * - no file of server/src imports itself back, type-only imports included (a type circle is a circle of
 *   meaning even where the compiler erases it);
 * - the modules under server/src/modules form no cycle, type imports included: a module that needs
 *   another's types depends on it just as much;
 * - common/, config/ and database/ sit below every module and import none of them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');

interface Dependency {
  id: string | null;
}
type DependencyTree = Record<string, Dependency[] | null>;
interface DpdmOutput {
  tree: DependencyTree;
  circulars: string[][];
}

/** dpdm's JSON output over server/src (spec files left out); with `transform`, type-only imports are erased. */
function graph(transform: boolean): DpdmOutput {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-dpdm-'));
  try {
    const out = join(dir, 'graph.json');
    execFileSync(
      process.execPath,
      [
        require.resolve('dpdm/lib/bin/dpdm.js'),
        ...(transform ? ['--transform'] : []),
        '--no-tree',
        '--no-warning',
        '--no-circular',
        '--no-progress',
        '--exclude',
        'node_modules|\\.spec\\.ts$',
        '--output',
        out,
        'server/src/**/*.ts',
      ],
      { cwd: root, stdio: 'ignore' },
    );
    return JSON.parse(readFileSync(out, 'utf8')) as DpdmOutput;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `modules/<name>` for a module's file, `common`/`config`/`database`/… for the shared layers. */
function unitOf(file: string): string {
  const m = /^server\/src\/modules\/([^/]+)\//.exec(file);
  if (m) return `modules/${m[1]}`;
  const layer = /^server\/src\/([^/]+)\//.exec(file);
  return layer ? layer[1] : file;
}

/** Edges between units, each with the first file-level import that makes it. */
function unitEdges(tree: DependencyTree): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const [file, deps] of Object.entries(tree)) {
    if (!deps || !file.startsWith('server/src/')) continue;
    for (const dep of deps) {
      if (!dep.id?.startsWith('server/src/')) continue;
      const from = unitOf(file);
      const to = unitOf(dep.id);
      if (from === to) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${file} -> ${dep.id}`);
      edges.set(from, out);
    }
  }
  return edges;
}

/** Strongly connected components with more than one member (Tarjan). */
function cycles(edges: Map<string, Map<string, string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('server import graph', () => {
  jest.setTimeout(120_000);

  it('has no import cycle between files, type-only imports included', () => {
    const { tree, circulars } = graph(false);
    expect(Object.keys(tree).filter((f) => f.startsWith('server/src/')).length).toBeGreaterThan(100);
    expect(circulars.map((c) => c.join(' -> '))).toEqual([]);
  });

  describe('between units', () => {
    let edges: Map<string, Map<string, string>>;
    beforeAll(() => {
      edges = unitEdges(graph(false).tree);
    });

    it('sees the modules', () => {
      expect(edges.get('modules/token')?.has('common')).toBe(true);
    });

    it('has no cycle between modules', () => {
      const report = cycles(edges).map((component) =>
        [
          component.join(' <-> '),
          ...component.flatMap((a) =>
            component.filter((b) => edges.get(a)?.has(b)).map((b) => `  ${edges.get(a)!.get(b)}`),
          ),
        ].join('\n'),
      );
      expect(report).toEqual([]);
    });

    it('keeps common, config and database below the modules', () => {
      const upward = ['common', 'config', 'database'].flatMap((layer) =>
        [...(edges.get(layer) ?? new Map<string, string>())]
          .filter(([to]) => to.startsWith('modules/'))
          .map(([, why]) => why),
      );
      expect(upward).toEqual([]);
    });
  });
});
