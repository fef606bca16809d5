// The metered forwarder's books on one SQLite connection: a batch of consume-log rows (each its
// parameters in `columns` order) and their total charge, written in one transaction with the user's
// balance and the token's use. Used on the forwarder's event loop, or by its writer thread
// (metered-log-writer.mjs) on a second connection.
export function batchWriter(db, columns, userId) {
  const insert = db.prepare(
    `INSERT INTO "logs" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  const takeUser = db.prepare(
    'UPDATE "users" SET "quota" = "quota" - ?, "used_quota" = "used_quota" + ?, "request_count" = "request_count" + ? WHERE "id" = ?',
  );
  const useToken = db.prepare(
    'UPDATE "tokens" SET "used_quota" = "used_quota" + ?, "accessed_time" = ? WHERE "id" = ?',
  );
  return db.transaction((rows, quota) => {
    for (const params of rows) insert.run(params);
    takeUser.run(quota, quota, rows.length, userId);
    useToken.run(quota, Math.floor(Date.now() / 1000), 1);
  });
}
