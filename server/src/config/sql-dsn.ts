export type DatabaseType = 'sqlite' | 'mysql' | 'postgres';

export type DatabaseConfig =
  | { type: 'sqlite'; path: string }
  | { type: 'mysql'; host: string; port: number; username: string; password: string; database: string }
  | { type: 'postgres'; url: string };

/**
 * SQL_DSN follows the gateways of this family: empty means SQLite, `postgres://` (or `postgresql://`)
 * means PostgreSQL, and anything else is a MySQL DSN, either `mysql://user:pass@host:port/db` or the
 * Go driver form `user:pass@tcp(host:port)/db?params`.
 */
export function parseSqlDsn(dsn: string, sqlitePath: string): DatabaseConfig {
  const s = dsn.trim();
  if (!s) return { type: 'sqlite', path: sqlitePath };
  if (/^postgres(ql)?:\/\//i.test(s)) {
    new URL(s); // throws on a malformed URL
    return { type: 'postgres', url: s };
  }
  if (/^mysql:\/\//i.test(s)) {
    const u = new URL(s);
    const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
    if (!database) throw new Error('the MySQL DSN names no database');
    return {
      type: 'mysql',
      host: u.hostname || '127.0.0.1',
      port: u.port ? Number(u.port) : 3306,
      username: decodeURIComponent(u.username),
      password: decodeURIComponent(u.password),
      database,
    };
  }
  const m = /^([^:@]*)(?::([^@]*))?@(?:tcp\(([^)]*)\)|unix\(([^)]*)\))?\/([^?]+)(?:\?.*)?$/.exec(s);
  if (!m)
    throw new Error(
      'not a recognised DSN (expected postgres://..., mysql://... or user:pass@tcp(host:port)/db)',
    );
  const [, user, pass, hostPort] = m;
  const database = m[5];
  const [host, port] = (hostPort ?? '127.0.0.1:3306').split(':');
  return {
    type: 'mysql',
    host: host || '127.0.0.1',
    port: port ? Number(port) : 3306,
    username: user,
    password: pass ?? '',
    database,
  };
}
