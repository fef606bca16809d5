import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../../migrations';
import { DatabaseConfig } from '../config/sql-dsn';
import { ENTITIES } from './entities';

/** Options shared by the app and the migration CLI. */
export function buildDataSourceOptions(db: DatabaseConfig): DataSourceOptions {
  const common = { entities: ENTITIES, migrations: MIGRATIONS, synchronize: false, logging: false } as const;
  switch (db.type) {
    case 'sqlite':
      if (db.path !== ':memory:') mkdirSync(dirname(db.path), { recursive: true });
      return {
        ...common,
        type: 'better-sqlite3',
        database: db.path,
        enableWAL: true,
        timeout: 10000,
        prepareDatabase: (conn: { pragma: (s: string) => unknown }) => {
          conn.pragma('busy_timeout = 10000');
          conn.pragma('synchronous = NORMAL');
          conn.pragma('foreign_keys = ON');
        },
      };
    case 'mysql':
      return {
        ...common,
        type: 'mysql',
        host: db.host,
        port: db.port,
        username: db.username,
        password: db.password,
        database: db.database,
        charset: 'utf8mb4_unicode_ci',
        supportBigNumbers: true,
        bigNumberStrings: false,
        timezone: 'Z',
        extra: { connectionLimit: 20 },
      };
    case 'postgres':
      return { ...common, type: 'postgres', url: db.url, extra: { max: 20 } };
  }
}

export function createDataSource(db: DatabaseConfig): DataSource {
  return new DataSource(buildDataSourceOptions(db));
}
