/** What an import found: fields it drops, values it changes, rows it cannot bring over, and the reconciliation. */

const MAX_IDS = 8;

interface Finding {
  count: number;
  ids: Array<string | number>;
}

export interface ReconRow {
  table: string;
  sourceRows: number;
  imported: number;
  rejected: number;
  targetRows: number;
  sourceQuota: bigint | null;
  rejectedQuota: bigint;
  adjustedQuota: bigint;
  targetQuota: bigint | null;
}

/** A table's counts agree when every source row is either in the target or reported, and so is its quota. */
export function reconciles(r: ReconRow): boolean {
  if (r.targetRows + r.rejected !== r.sourceRows) return false;
  if (r.sourceQuota === null || r.targetQuota === null) return true;
  return r.targetQuota === r.sourceQuota - r.rejectedQuota - r.adjustedQuota;
}

export class ImportReport {
  /** table → column → rows holding a value, with why the column is not carried over. */
  readonly dropped = new Map<string, Map<string, { reason: string; rows: number }>>();
  /** table → change → rows. */
  readonly changes = new Map<string, Map<string, Finding>>();
  /** table → reason → rows not imported. */
  readonly rejected = new Map<string, Map<string, Finding>>();
  readonly notes: string[] = [];

  dropColumn(table: string, column: string, reason: string): void {
    if (!this.dropped.has(table)) this.dropped.set(table, new Map());
    const t = this.dropped.get(table)!;
    if (!t.has(column)) t.set(column, { reason, rows: 0 });
  }

  droppedValue(table: string, column: string): void {
    const c = this.dropped.get(table)?.get(column);
    if (c) c.rows++;
  }

  change(table: string, id: string | number, message: string): void {
    add(this.changes, table, id, message);
  }

  reject(table: string, id: string | number, reason: string): void {
    add(this.rejected, table, id, reason);
  }

  rejectedCount(table: string): number {
    let n = 0;
    for (const f of this.rejected.get(table)?.values() ?? []) n += f.count;
    return n;
  }

  note(line: string): void {
    this.notes.push(line);
  }

  render(): string {
    const out: string[] = [];
    const dropped = [...this.dropped].flatMap(([table, cols]) =>
      [...cols].map(
        ([col, d]) => `  ${table}.${col} (${d.rows} row${d.rows === 1 ? '' : 's'} with a value): ${d.reason}`,
      ),
    );
    out.push(dropped.length ? 'Fields not carried over:' : 'Fields not carried over: none');
    out.push(...dropped);
    const changes = renderFindings(this.changes);
    out.push(changes.length ? 'Values changed on the way:' : 'Values changed on the way: none');
    out.push(...changes);
    const rejected = renderFindings(this.rejected);
    out.push(rejected.length ? 'Rows not imported:' : 'Rows not imported: none');
    out.push(...rejected);
    if (this.notes.length) out.push('Notes:', ...this.notes.map((n) => `  ${n}`));
    return out.join('\n');
  }
}

function add(
  map: Map<string, Map<string, Finding>>,
  table: string,
  id: string | number,
  message: string,
): void {
  if (!map.has(table)) map.set(table, new Map());
  const t = map.get(table)!;
  const f = t.get(message) ?? { count: 0, ids: [] };
  f.count++;
  if (f.ids.length < MAX_IDS) f.ids.push(id);
  t.set(message, f);
}

function renderFindings(map: Map<string, Map<string, Finding>>): string[] {
  const out: string[] = [];
  for (const [table, findings] of map)
    for (const [message, f] of findings) {
      const more = f.count > f.ids.length ? `, … ${f.count - f.ids.length} more` : '';
      out.push(
        `  ${table}: ${message} — ${f.count} row${f.count === 1 ? '' : 's'} (${f.ids.join(', ')}${more})`,
      );
    }
  return out;
}

/** The reconciliation as a text table. */
export function renderReconciliation(rows: ReconRow[], dryRun: boolean): string {
  const head = [
    'table',
    'source rows',
    dryRun ? 'would import' : 'imported',
    'not imported',
    dryRun ? 'target would hold' : 'target rows',
    'source quota',
    'not imported quota',
    'adjusted quota',
    dryRun ? 'target quota would be' : 'target quota',
    'match',
  ];
  const q = (v: bigint | null) => (v === null ? '-' : v.toString());
  const body = rows.map((r) => [
    r.table,
    String(r.sourceRows),
    String(r.imported),
    String(r.rejected),
    String(r.targetRows),
    q(r.sourceQuota),
    r.sourceQuota === null ? '-' : r.rejectedQuota.toString(),
    r.sourceQuota === null ? '-' : r.adjustedQuota.toString(),
    q(r.targetQuota),
    reconciles(r) ? 'yes' : 'NO',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join(' | ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-+-'), ...body.map(line)].join('\n');
}
