import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import request from 'supertest';
import { RelayAdmission } from '../../server/src/modules/relay/lifecycle/admission';
import { HTTP_ENTRY } from '../../server/src/modules/relay/lifecycle/settlement';
import { Spending } from '../../server/src/modules/relay/lifecycle/spend';
import { QuotaLedgerService } from '../../server/src/modules/billing/quota-ledger.service';
import { MockUpstream } from '../mocks/mock-upstream';
import { logsOf, makeChannel, makeToken, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, startNode, TestApp } from '../support/test-app';

/** The relay end to end with the official SDKs: formats, streaming, errors and exact billing. */
describe('relay', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let user: Awaited<ReturnType<typeof makeUser>>;
  let key: string;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    root = await setupRoot(t);
    user = await makeUser(t, root);
    await setQuota(t, user.userId!, 10_000_000);
    await makeChannel(t, { type: 1, base_url: mock.url, models: 'gpt-4o,gpt-4o-mini' });
    await makeChannel(t, { type: 14, base_url: mock.url, models: 'claude-sonnet-4' });
    await makeChannel(t, { type: 24, base_url: mock.url, models: 'gemini-2.0-flash' });
    key = (await makeToken(t, user.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const openai = () => new OpenAI({ apiKey: key, baseURL: `${t.url}/v1`, maxRetries: 0 });
  /** Posts a JSON body as these exact bytes (the test client does not serialise it again). */
  const sendRaw = (path: string, raw: string, header: 'Authorization' | 'x-api-key' = 'Authorization') =>
    request(t.url)
      .post(path)
      .set(header, header === 'Authorization' ? `Bearer ${key}` : key)
      .set('content-type', 'application/json')
      .send(raw);
  const anthropic = () => new Anthropic({ apiKey: key, baseURL: t.url, maxRetries: 0 });

  it('answers an OpenAI chat request and bills it exactly (gpt-4o: (10 + 5×4) × 1.25 = 38)', async () => {
    const before = await quotaOf(t, user.userId!);
    const res = await openai().chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.choices[0].message.content).toBe('Hello from the mock upstream.');
    expect(res.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5 });
    expect(res.model).toBe('gpt-4o');
    await settle(t);
    const logs = await logsOf(t, user.userId!);
    const log = logs.at(-1)!;
    expect(log).toMatchObject({
      type: 2,
      quota: 38,
      prompt_tokens: 10,
      completion_tokens: 5,
      model_name: 'gpt-4o',
      is_stream: false,
    });
    expect(log.other).toMatchObject({
      model_ratio: 1.25,
      completion_ratio: 4,
      group_ratio: 1,
      model_price: -1,
      client_type: 'openai-node',
    });
    expect(await quotaOf(t, user.userId!)).toBe(before - 38);
  });

  it('streams chunk by chunk, hides the forced usage chunk, and still bills the reported usage', async () => {
    const stream = await openai().chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: '[[usage=100,20]]' }],
    });
    let text = '';
    let sawUsage = false;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) sawUsage = true;
    }
    expect(text).toBe('Hello from the mock upstream.');
    expect(sawUsage).toBe(false);
    expect(mock.last!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    await settle(t);
    const log = (await logsOf(t, user.userId!)).at(-1)!;
    expect(log).toMatchObject({
      quota: Math.round((100 + 20 * 4) * 1.25),
      prompt_tokens: 100,
      completion_tokens: 20,
      is_stream: true,
    });
  });

  it('passes the usage chunk to a client that asked for it', async () => {
    const stream = await openai().chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: '[[usage=7,3]]' }],
    });
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3 });
  });

  it('serves an OpenAI request from an Anthropic channel and an Anthropic request from an OpenAI channel', async () => {
    const viaClaude = await openai().chat.completions.create({
      model: 'claude-sonnet-4',
      messages: [{ role: 'user', content: '[[usage=12,4]]' }],
    });
    expect(viaClaude.choices[0].message.content).toBe('Hello from the mock upstream.');
    expect(mock.last!.path).toBe('/v1/messages');

    const msg = await anthropic().messages.create({
      model: 'gpt-4o',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(msg.content[0]).toMatchObject({ type: 'text', text: 'Hello from the mock upstream.' });
    expect(mock.last!.path).toBe('/v1/chat/completions');

    const stream = anthropic().messages.stream({
      model: 'gpt-4o',
      max_tokens: 100,
      messages: [{ role: 'user', content: '[[usage=9,5]]' }],
    });
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'text', text: 'Hello from the mock upstream.' });
    expect(final.usage.output_tokens).toBe(5);
  });

  it('relays Anthropic to Anthropic untouched in shape, with cache tokens billed', async () => {
    const final = await anthropic()
      .messages.stream({
        model: 'claude-sonnet-4',
        max_tokens: 50,
        messages: [{ role: 'user', content: '[[usage=100,10]] [[cache=1000,200]]' }],
      })
      .finalMessage();
    expect(final.usage).toMatchObject({
      input_tokens: 100,
      output_tokens: 10,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 200,
    });
    await settle(t);
    const log = (await logsOf(t, user.userId!)).at(-1)!;
    // claude-sonnet-4: ratio 1.5, completion 5, cache read 0.1, cache write 1.25
    expect(log.quota).toBe(Math.round((100 + 1000 * 0.1 + 200 * 1.25 + 10 * 5) * 1.5));
    expect(log.other).toMatchObject({
      cache_tokens: 1000,
      cache_creation_tokens: 200,
      claude: true,
      client_type: 'anthropic',
    });
  });

  it('serves OpenAI clients from a Gemini channel, streaming', async () => {
    const stream = await openai().chat.completions.create({
      model: 'gemini-2.0-flash',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello from the mock upstream.');
    expect(mock.last!.path).toContain(':streamGenerateContent');
  });

  it('refuses bad keys and bad bodies in the caller’s format, changing nothing', async () => {
    await settle(t);
    const before = await quotaOf(t, user.userId!);
    const bad = new OpenAI({ apiKey: 'sk-' + 'x'.repeat(48), baseURL: `${t.url}/v1`, maxRetries: 0 });
    await expect(bad.chat.completions.create({ model: 'gpt-4o', messages: [] })).rejects.toMatchObject({
      status: 401,
    });
    const r1 = await request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .set('content-type', 'application/json')
      .send('{"model":');
    expect(r1.status).toBe(400);
    expect(r1.body.error).toMatchObject({ type: 'invalid_request_error' });
    const r2 = await request(t.url)
      .post('/v1/messages')
      .set('x-api-key', key)
      .send({ model: 'nope', max_tokens: 1, messages: [] });
    expect(r2.status).toBe(403);
    expect(r2.body).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    const r3 = await request(t.url)
      .post('/v1beta/models/gemini-2.0-flash:generateContent')
      .set('x-goog-api-key', 'sk-nope-nope-nope-nope')
      .send({ contents: [] });
    expect(r3.status).toBe(401);
    expect(r3.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
    const r4 = await request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'gpt-4o', messages: 'hi' });
    expect(r4.status).toBe(400);
    await settle(t);
    expect(await quotaOf(t, user.userId!)).toBe(before);
  });

  it('answers ugly bodies with 400/413 in OpenAI format, never reaching the upstream or the balance', async () => {
    await settle(t);
    const before = await quotaOf(t, user.userId!);
    const calls = mock.requests.length;
    const post = (body: string | object) =>
      request(t.url)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${key}`)
        .set('content-type', 'application/json')
        .send(body);
    for (const body of [
      '[1, 2]',
      '"text"',
      '',
      { model: 'gpt-4o', stream: 'yes', messages: [] },
      { model: 'gpt-4o', max_tokens: -1, messages: [] },
      { model: 'gpt-4o', n: '2', messages: [] },
      { model: 42, messages: [] },
      '{"model":"gpt-4o","max_tokens":1e400,"messages":[]}',
    ]) {
      const res = await post(body);
      expect([res.status, typeof res.body.error?.message]).toEqual([400, 'string']);
    }
    const huge = await request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .set('content-type', 'application/json')
      .send(`{"model":"gpt-4o","messages":[{"role":"user","content":"${'a'.repeat(65 * 1024 * 1024)}"}]}`);
    expect(huge.status).toBe(413);
    expect(huge.body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(mock.requests.length).toBe(calls);
    const unicode = await post({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: '你好 👋🏽 \u0000 ﷽' }],
    });
    expect(unicode.status).toBe(200);
    await settle(t);
    const logs = await logsOf(t, user.userId!);
    expect(await quotaOf(t, user.userId!)).toBe(before - logs.at(-1)!.quota);
  });

  it('forwards same-format bodies byte for byte when pass-through is on', async () => {
    await putOption(root, 'global.pass_through_request_enabled', 'true');
    const raw = '{"model":"gpt-4o",  "messages":[{"role":"user","content":"hi"}], "vendor_extra": {"x": 1}}';
    const res = await request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .set('content-type', 'application/json')
      .send(raw);
    await putOption(root, 'global.pass_through_request_enabled', 'false');
    expect(res.status).toBe(200);
    expect(mock.last!.rawBody.toString('utf8')).toBe(raw);
  });

  it('sends an OpenAI body as the client’s own bytes, with added fields appended and a changed one re-serialised', async () => {
    const send = (raw: string) => sendRaw('/v1/chat/completions', raw);
    const plain =
      '{"model":"gpt-4o",  "messages":[{"role":"user","content":"hi \\u00e9"}], "temperature": 0.50}';
    expect((await send(plain)).status).toBe(200);
    expect(mock.last!.rawBody.toString('utf8')).toBe(plain);
    // A stream gets stream_options.include_usage added upstream: the client's bytes with that member appended.
    const streamed =
      '{"model":"gpt-4o",  "stream": true, "messages":[{"role":"user","content":"hi \\u00e9"}] } \n';
    expect((await send(streamed)).status).toBe(200);
    expect(mock.last!.rawBody.toString('utf8')).toBe(
      '{"model":"gpt-4o",  "stream": true, "messages":[{"role":"user","content":"hi \\u00e9"}] ,"stream_options":{"include_usage":true}} \n',
    );
    expect(mock.last!.body).toMatchObject({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
    });
    // A stream that already asks for usage (the OpenAI SDKs' `stream_options`): nothing to add, the
    // client's bytes exactly.
    const asks =
      '{"model":"gpt-4o", "stream": true, "stream_options": {"include_usage": true}, "messages":[{"role":"user","content":"hi"}]}';
    expect((await send(asks)).status).toBe(200);
    expect(mock.last!.rawBody.toString('utf8')).toBe(asks);
    // The client's own stream_options changed (include_usage forced on): the body is re-serialised.
    const own =
      '{"model":"gpt-4o", "stream": true, "stream_options": {"include_usage": false}, "messages":[{"role":"user","content":"hi"}]}';
    expect((await send(own)).status).toBe(200);
    expect(mock.last!.rawBody.toString('utf8')).not.toBe(own);
    expect(mock.last!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('maps a model by replacing its name in the client’s bytes and in the upstream’s answer, nothing else re-serialised', async () => {
    await makeChannel(t, {
      type: 1,
      base_url: mock.url,
      models: 'gpt-4.1',
      model_mapping: '{"gpt-4.1":"gpt-4o-mini"}',
    });
    const send = (raw: string) => sendRaw('/v1/chat/completions', raw);
    mock.indentJson = 2;
    try {
      const raw =
        '{"model" : "gpt-4.1",  "messages":[{"role":"user","content":"hi \\u00e9"}], "temperature": 0.50}';
      const res = await send(raw);
      expect(res.status).toBe(200);
      expect(mock.last!.rawBody.toString('utf8')).toBe(raw.replace('"gpt-4.1"', '"gpt-4o-mini"'));
      // The answer names the client's model, in the upstream's own text (its indentation kept).
      expect(res.text).toContain('\n  "model": "gpt-4.1",\n');
      expect(JSON.parse(res.text)).toMatchObject({ model: 'gpt-4.1', object: 'chat.completion' });
      // Mapped and streamed: the name replaced and stream_options appended.
      const streamed = '{"stream":true,"model":"gpt-4.1","messages":[{"role":"user","content":"hi"}]}';
      expect((await send(streamed)).status).toBe(200);
      expect(mock.last!.rawBody.toString('utf8')).toBe(
        '{"stream":true,"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"stream_options":{"include_usage":true}}',
      );
      // "model" twice in the bytes (here as a message's text): the body is serialised again, mapped all the same.
      const twice = '{"model":"gpt-4.1", "messages":[{"role":"user","content":"model"}]}';
      expect((await send(twice)).status).toBe(200);
      expect(mock.last!.rawBody.toString('utf8')).not.toBe(twice.replace('"gpt-4.1"', '"gpt-4o-mini"'));
      expect(mock.last!.body).toMatchObject({ model: 'gpt-4o-mini', messages: [{ content: 'model' }] });
      // A legacy completions answer keeps the upstream's model name, as it always has.
      const completion = await sendRaw('/v1/completions', '{"model":"gpt-4.1","prompt":"hi [[usage=5,2]]"}');
      expect(completion.status).toBe(200);
      expect(mock.last!.body).toMatchObject({ model: 'gpt-4o-mini' });
      expect(JSON.parse(completion.text)).toMatchObject({
        model: 'gpt-4o-mini',
        usage: { prompt_tokens: 5, completion_tokens: 2 },
      });
    } finally {
      mock.indentJson = 0;
    }
  });

  it('admits the usual call (cached key, fresh balance, no limits, no budget) without waiting on a promise', async () => {
    const admission = t.app.get(RelayAdmission);
    const spending = t.app.get(Spending);
    const caller = await admission.caller(key, '127.0.0.1');
    // Token and user now cached: the caller is known at once.
    expect(admission.caller(key, '127.0.0.1')).not.toBeInstanceOf(Promise);
    await t.app.get(QuotaLedgerService).balanceOf(user.userId!); // a fresh reading of the balance
    const ctx = admission.admit(
      {
        format: 'openai',
        mode: 'chat',
        body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
        raw: Buffer.from('{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}'),
        contentType: 'application/json',
        pathModel: null,
        pathStream: false,
        key,
        ip: '127.0.0.1',
        requestId: 'admit-sync',
        lang: 'en',
        userAgent: 'test',
      },
      caller,
    );
    const ticket = spending.open(ctx, HTTP_ENTRY);
    expect(ticket.admit()).toBeUndefined();
    expect(ticket.open).toBe(true);
    expect(ticket.hold).not.toBeNull();
    // Given back in full: this call never went upstream.
    ticket.refund(null, null);
    ticket.close();
    expect(ticket.open).toBe(false);
    await settle(t);
  });

  it('bills a plain OpenAI answer by its own usage whatever its text holds', async () => {
    // Replies that name "usage", "error" and "model" as strings, and one with escaped letters.
    for (const reply of ['usage', 'error', 'model', 'caf\u00e9 \u0075sage']) {
      const res = await request(t.url)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${key}`)
        .send({
          model: 'gpt-4o',
          messages: [{ role: 'user', content: `[[usage=33,7]] [[reply=${reply}]]` }],
        });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        model: 'gpt-4o',
        choices: [{ message: { content: reply } }],
        usage: { prompt_tokens: 33, completion_tokens: 7 },
      });
      await settle(t);
      const log = (await logsOf(t, user.userId!)).find(
        (l) => l.request_id === res.headers['x-oneapi-request-id'],
      );
      expect(log).toMatchObject({
        prompt_tokens: 33,
        completion_tokens: 7,
        quota: Math.round((33 + 7 * 4) * 1.25),
      });
    }
  });

  it('sends an Anthropic body as the client’s own bytes when nothing of it changes', async () => {
    const send = (raw: string) => sendRaw('/v1/messages', raw, 'x-api-key');
    const plain =
      '{"model":"claude-sonnet-4",  "max_tokens": 64, "messages":[{"role":"user","content":"hi \\u00e9"}], "temperature": 0.50}';
    expect((await send(plain)).status).toBe(200);
    expect(mock.last!.rawBody.toString('utf8')).toBe(plain);
    const streamed =
      '{"model":"claude-sonnet-4","stream":true,"max_tokens":64,"messages":[{"role":"user","content":"hi"}]} ';
    const res = await send(streamed);
    expect(res.status).toBe(200);
    expect(res.text).toContain('event: message_stop');
    expect(mock.last!.rawBody.toString('utf8')).toBe(streamed);
    // No max_tokens: the adapter adds the model's default, so the body is serialised with it.
    const bare = '{"model":"claude-sonnet-4", "messages":[{"role":"user","content":"hi"}]}';
    expect((await send(bare)).status).toBe(200);
    expect(mock.last!.body).toMatchObject({ model: 'claude-sonnet-4', max_tokens: expect.any(Number) });
  });

  it('flushes queued charges and their logs when a node shuts down', async () => {
    await settle(t);
    const before = await quotaOf(t, user.userId!);
    const node = await startNode(t);
    const res = await request(node.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'gpt-4o', messages: [{ role: 'user', content: '[[usage=40,10]]' }] });
    expect(res.status).toBe(200);
    await node.close();
    const log = (await logsOf(t, user.userId!)).find(
      (l) => l.request_id === res.headers['x-oneapi-request-id'],
    );
    expect(log).toMatchObject({ quota: Math.round((40 + 10 * 4) * 1.25), prompt_tokens: 40 });
    expect(await quotaOf(t, user.userId!)).toBe(before - log!.quota);
  });

  it('keeps the balance exact and never negative under 200 concurrent requests on a small balance', async () => {
    const poor = await makeUser(t, root);
    // Each request costs 38 and reserves more up front; 1500 covers only some of them.
    await setQuota(t, poor.userId!, 1500);
    const k = (await makeToken(t, poor.userId!)).key;
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        request(t.url)
          .post('/v1/chat/completions')
          .set('Authorization', `Bearer ${k}`)
          .send({ model: 'gpt-4o', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
      ),
    );
    const ok = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 403).length;
    expect(ok + refused).toBe(200);
    expect(ok).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    await settle(t);
    const after = await quotaOf(t, poor.userId!);
    const logs = (await logsOf(t, poor.userId!)).filter((l) => l.type === 2);
    expect(after).toBeGreaterThanOrEqual(0);
    expect(logs.length).toBe(ok);
    expect(1500 - after).toBe(logs.reduce((s, l) => s + l.quota, 0));
  });
});
