// A back-office script that knows nothing of Gatehouse but its OpenAPI document: it reads
// /api/docs-json, finds each call by its operationId, and uses only what the document declares.
// Node 20+, no dependencies.
//
//   GATEHOUSE_URL=https://gw.example.com GATEHOUSE_ADMIN_ID=1 GATEHOUSE_ADMIN_TOKEN=<access token> \
//   NEW_USERNAME=alice NEW_PASSWORD='a-long-password' node back-office.mjs
//
// The admin's access token comes from the console (personal settings → access token) or from
// GET /api/user/token. The script prints {user_id, token_key, redemption_code} as JSON.
const base = process.env.GATEHOUSE_URL;
const admin = {
  'New-Api-User': process.env.GATEHOUSE_ADMIN_ID,
  Authorization: `Bearer ${process.env.GATEHOUSE_ADMIN_TOKEN}`,
};
const username = process.env.NEW_USERNAME;
const password = process.env.NEW_PASSWORD;

const doc = await (await fetch(`${base}/api/docs-json`)).json();
const operations = {};
for (const [path, item] of Object.entries(doc.paths))
  for (const [method, op] of Object.entries(item)) operations[op.operationId] = { method, path };

/** Calls an operation of the document; answers `data` of the {success, message, data} envelope. */
async function call(operationId, { params = {}, query = {}, body, headers = {} } = {}) {
  const op = operations[operationId];
  if (!op) throw new Error(`${operationId} is not in the API document`);
  const path = op.path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(params[name]));
  const qs = new URLSearchParams(query).toString();
  const res = await fetch(`${base}${path}${qs ? `?${qs}` : ''}`, {
    method: op.method.toUpperCase(),
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json();
  if (!answer.success) throw new Error(`${operationId}: ${res.status} ${answer.message}`);
  return { data: answer.data, res };
}

// 1. The user (admin call), then its id from the search.
await call('UserController_create', { headers: admin, body: { username, password, display_name: username } });
const found = await call('UserController_search', { headers: admin, query: { keyword: username } });
const user = found.data.items.find((u) => u.username === username);

// 2. An API token of that user: signed in as the user (session cookie + New-Api-User).
const login = await call('AuthController_login', { body: { username, password } });
const asUser = {
  Cookie: login.res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; '),
  'New-Api-User': String(login.data.id),
};
const [token] = (
  await call('TokenController_create', {
    headers: asUser,
    body: { name: 'back-office', remain_quota: 500000 },
  })
).data;
const { key } = (await call('TokenController_reveal', { headers: asUser, params: { id: token.id } })).data;

// 3. A redemption code worth 100000 quota (admin call).
const [code] = (
  await call('RedemptionController_create', {
    headers: admin,
    body: { name: 'welcome', quota: 100000, count: 1 },
  })
).data;

console.log(JSON.stringify({ user_id: user.id, token_key: key, redemption_code: code }));
