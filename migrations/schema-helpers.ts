import { QueryRunner, TableColumnOptions, TableIndexOptions } from 'typeorm';

/**
 * Column builders that pick the right physical type for each driver, so one migration file serves
 * SQLite, MySQL/MariaDB and PostgreSQL.
 */
export function columnKit(qr: QueryRunner) {
  const driver = qr.connection.options.type;
  const mysql = driver === 'mysql' || driver === 'mariadb';
  const pg = driver === 'postgres';
  // Exact comparison on MySQL too (its default collations fold case and treat all emoji as equal),
  // so that a username or key means the same on every database.
  const exact = mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {};
  return {
    id: (name = 'id', big = false): TableColumnOptions => ({
      name,
      // SQLite's INTEGER PRIMARY KEY is already 64-bit and is the only type AUTOINCREMENT accepts.
      type: big && (mysql || pg) ? 'bigint' : 'integer',
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment',
    }),
    int: (name: string, dflt: number | null = 0): TableColumnOptions => ({
      name,
      type: 'integer',
      isNullable: dflt === null,
      default: dflt === null ? undefined : dflt,
    }),
    bigint: (name: string, dflt: number | null = 0): TableColumnOptions => ({
      name,
      type: 'bigint',
      isNullable: dflt === null,
      default: dflt === null ? undefined : dflt,
    }),
    double: (name: string): TableColumnOptions => ({
      name,
      type: pg ? 'double precision' : mysql ? 'double' : 'real',
      default: 0,
    }),
    bool: (name: string, dflt = false): TableColumnOptions => ({
      name,
      type: 'boolean',
      default: pg ? String(dflt) : dflt ? 1 : 0,
    }),
    str: (name: string, length: number, dflt: string | null = ''): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable: dflt === null,
      default: dflt === null ? undefined : `'${dflt.replace(/'/g, "''")}'`,
      ...exact,
    }),
    text: (name: string, nullable = true): TableColumnOptions => ({
      name,
      type: mysql ? 'longtext' : 'text',
      isNullable: nullable,
      ...exact,
    }),
  };
}

export function idx(table: string, columns: string[], unique = false): TableIndexOptions {
  return { name: `idx_${table}_${columns.join('_')}`, columnNames: columns, isUnique: unique };
}
