import { parseSqlDsn } from './sql-dsn';

describe('parseSqlDsn', () => {
  it('empty means SQLite at the given path', () => {
    expect(parseSqlDsn('', '/data/x.db')).toEqual({ type: 'sqlite', path: '/data/x.db' });
    expect(parseSqlDsn('   ', '/d.db')).toEqual({ type: 'sqlite', path: '/d.db' });
  });

  it('reads PostgreSQL URLs', () => {
    expect(parseSqlDsn('postgres://u:p@h:5432/db', '')).toEqual({
      type: 'postgres',
      url: 'postgres://u:p@h:5432/db',
    });
    expect(parseSqlDsn('postgresql://h/db', '').type).toBe('postgres');
  });

  it('reads the Go MySQL form with and without password and params', () => {
    expect(parseSqlDsn('root:secret@tcp(10.0.0.5:3307)/gh?charset=utf8mb4&parseTime=True', '')).toEqual({
      type: 'mysql',
      host: '10.0.0.5',
      port: 3307,
      username: 'root',
      password: 'secret',
      database: 'gh',
    });
    expect(parseSqlDsn('root@tcp(localhost)/gh', '')).toMatchObject({
      host: 'localhost',
      port: 3306,
      password: '',
    });
  });

  it('reads mysql:// URLs with escaped credentials', () => {
    expect(parseSqlDsn('mysql://a%40b:p%3Aw@db:3306/app', '')).toEqual({
      type: 'mysql',
      host: 'db',
      port: 3306,
      username: 'a@b',
      password: 'p:w',
      database: 'app',
    });
  });

  it('refuses what it cannot read', () => {
    expect(() => parseSqlDsn('mysql://h:3306/', '')).toThrow(/no database/);
    expect(() => parseSqlDsn('just-garbage', '')).toThrow(/not a recognised DSN/);
  });
});
