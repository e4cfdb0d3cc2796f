// Search: words and phrases with from:, in:, mentions:, has:, before:/after:, only in channels
// the caller can read now (also after an overwrite takes VER_CANAL away), following edits and
// deletes; the DM variant; bots need messages.read.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, appWithBot, install, serverWithMembers, sharedServer, startServer } = require('./helpers');
const { P } = require('./permissions');

const srv = sharedServer({}, []);

test('words, phrases and filters find what was said, newest first, paged', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const [bia] = w.members;
  const cid = w.server.channels[0].id;
  const avisos = (await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'avisos' } })).body.channel.id;
  const say = async (who, channel, content) => (await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${channel}/messages`, { token: who.token, body: { content } })).body.message;
  const m1 = await say(w.owner, cid, 'O deploy de sexta quebrou o login');
  const m2 = await say(bia, cid, `o deploy voltou, @${w.owner.user.username} confere? https://ci.example/42`);
  const m3 = await say(bia, avisos, 'deploy marcado para segunda');
  await say(w.owner, cid, 'nada a ver');
  const find = async (q, who = w.owner, extra = '') => {
    const r = await api(srv.url, 'GET', `/api/servers/${w.sid}/messages/search?q=${encodeURIComponent(q)}${extra}`, { token: who.token });
    assert.equal(r.status, 200, r.text);
    return r.body;
  };
  const ids = async (q, who, extra) => (await find(q, who, extra)).messages.map((m) => m.id);
  assert.deepEqual(await ids('deploy'), [m3.id, m2.id, m1.id], 'newest first, every channel');
  assert.deepEqual(await ids('"quebrou o login"'), [m1.id]);
  assert.deepEqual(await ids('deploy login'), [m1.id], 'every word');
  assert.deepEqual(await ids(`deploy from:${bia.user.username}`), [m3.id, m2.id]);
  assert.deepEqual(await ids('deploy in:#avisos'), [m3.id]);
  assert.deepEqual(await ids(`mentions:@${w.owner.user.username}`), [m2.id]);
  assert.deepEqual(await ids('has:link'), [m2.id]);
  assert.deepEqual(await ids('deploy after:2000-01-01 before:2100-01-01'), [m3.id, m2.id, m1.id]);
  assert.deepEqual(await ids('deploy before:2000-01-01'), []);
  assert.deepEqual(await ids('from:ninguem_aqui'), [], 'a name that is nobody finds nothing');
  assert.deepEqual(await ids('deploy in:#nenhum'), []);
  const page = await find('deploy', w.owner, '&limit=2');
  assert.deepEqual([page.messages.length, page.hasMore], [2, true]);
  assert.deepEqual(await ids('deploy', w.owner, `&before=${page.messages[1].id}`), [m1.id]);
  assert.equal(page.messages[0].content, 'deploy marcado para segunda', 'whole messages');
  // Nothing typed is read as the engine's syntax.
  assert.deepEqual(await ids('NEAR( "deploy" OR * ^'), []);
  for (const [q, error] of [['has:foto', 'q: has: deve ser link, embed ou file'], ['after:ontem', 'q: before: e after: levam uma data AAAA-MM-DD'],
    ['x'.repeat(513), 'q: deve ter até 512 caracteres, sem controles']]) {
    const r = await api(srv.url, 'GET', `/api/servers/${w.sid}/messages/search?q=${encodeURIComponent(q)}`, { token: w.owner.token });
    assert.equal(r.status, 400, q);
    assert.equal(r.body.error, error);
  }
  assert.equal((await api(srv.url, 'GET', `/api/servers/${w.sid}/messages/search?q=x&limit=26`, { token: w.owner.token })).status, 400);
});

test('only channels the caller can read now; edits and deletes are followed; bots need messages.read', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const [bia] = w.members;
  const cid = w.server.channels[0].id;
  const staff = (await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'staff' } })).body.channel.id;
  const say = async (channel, content) => (await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${channel}/messages`, { token: w.owner.token, body: { content } })).body.message;
  const open = await say(cid, 'planilha do orçamento');
  const secret = await say(staff, 'orçamento secreto da equipe');
  const ids = async (q, token = bia.token) => (await api(srv.url, 'GET', `/api/servers/${w.sid}/messages/search?q=${encodeURIComponent(q)}`, { token })).body.messages.map((m) => m.id);
  assert.deepEqual(await ids('orçamento'), [secret.id, open.id]);
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/channels/${staff}/overwrites/${w.sid}`, { token: w.owner.token, body: { type: 'role', deny: P.VER_CANAL } });
  assert.deepEqual(await ids('orçamento'), [open.id], 'not after VER_CANAL is taken away');
  assert.deepEqual(await ids('orçamento', w.owner.token), [secret.id, open.id], 'the owner still sees it');
  assert.deepEqual(await ids('secreto in:#staff'), []);

  await api(srv.url, 'PATCH', `/api/servers/${w.sid}/channels/${cid}/messages/${open.id}`, { token: w.owner.token, body: { content: 'planilha das férias' } });
  assert.deepEqual(await ids('planilha'), [open.id]);
  assert.deepEqual(await ids('orçamento'), [], 'the old words are gone');
  await api(srv.url, 'DELETE', `/api/servers/${w.sid}/channels/${cid}/messages/${open.id}`, { token: w.owner.token });
  assert.deepEqual(await ids('planilha'), []);

  const quiet = await appWithBot(srv.url, w.owner, {});
  await install(srv.url, w.owner, quiet, w.sid, { permissions: P.VER_CANAL });
  const refused = await api(srv.url, 'GET', `/api/servers/${w.sid}/messages/search?q=x`, { token: quiet.botToken });
  assert.equal(refused.status, 403);
  const reader = await appWithBot(srv.url, w.owner, { intents: ['messages.read'] });
  await install(srv.url, w.owner, reader, w.sid, { permissions: P.VER_CANAL });
  await say(cid, 'pergunta para o bot');
  assert.equal((await ids('pergunta', reader.botToken)).length, 1);
  const stranger = await serverWithMembers(srv.url, 0);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${w.sid}/messages/search?q=x`, { token: stranger.owner.token })).status, 404);
});

test('a DM is searched by its two people only', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const [bia] = w.members;
  const dm = (await api(srv.url, 'POST', '/api/users/@me/dms', { token: w.owner.token, body: { userId: bia.user.id } })).body.channel.id;
  const sent = await api(srv.url, 'POST', `/api/dms/${dm}/messages`, { token: w.owner.token, body: { content: 'o presente da Carla' } });
  const r = await api(srv.url, 'GET', `/api/dms/${dm}/messages/search?q=presente`, { token: bia.token });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.messages.map((m) => m.id), [sent.body.message.id]);
  const other = await serverWithMembers(srv.url, 0);
  assert.equal((await api(srv.url, 'GET', `/api/dms/${dm}/messages/search?q=presente`, { token: other.owner.token })).status, 404);
});

test('the index follows sends by itself; a message that takes a deleted one’s place is found', async () => {
  const w = await serverWithMembers(srv.url, 0);
  const cid = w.server.channels[0].id;
  const url = `/api/servers/${w.sid}/channels/${cid}/messages`;
  const ids = async (q) => (await api(srv.url, 'GET', `/api/servers/${w.sid}/messages/search?q=${encodeURIComponent(q)}`, { token: w.owner.token })).body.messages.map((m) => m.id);
  const first = (await api(srv.url, 'POST', url, { token: w.owner.token, body: { content: 'alfabeto primeiro' } })).body.message;
  assert.deepEqual(await ids('alfabeto'), [first.id], 'indexed before the search reads');
  // The newest message goes; the next one is given its place in the table (SQLite's rowid) and
  // must still be indexed.
  assert.equal((await api(srv.url, 'DELETE', `${url}/${first.id}`, { token: w.owner.token })).status, 200);
  const next = (await api(srv.url, 'POST', url, { token: w.owner.token, body: { content: 'betacaroteno segundo' } })).body.message;
  assert.deepEqual(await ids('betacaroteno'), [next.id]);
  assert.deepEqual(await ids('alfabeto'), []);
});

test('filters alone read a bounded window per call and say where to go on; searches have a limit', async () => {
  const own = await startServer({ args: ['--search-scan-rows', '10', '--rate-limit-scale', '10'] });
  try {
    const w = await serverWithMembers(own.url, 0);
    const cid = w.server.channels[0].id;
    const say = async (content) => (await api(own.url, 'POST', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: w.owner.token, body: { content } })).body.message;
    const linked = [];
    for (let i = 0; i < 3; i++) linked.push((await say(`veja https://exemplo.org/${i}`)).id);
    for (let i = 0; i < 35; i++) await say(`conversa ${i}`);
    // The 35 newest say nothing of links: the first calls find nothing and say where to go on.
    const calls = [];
    let before = '';
    for (;;) {
      const r = await api(own.url, 'GET', `/api/servers/${w.sid}/messages/search?q=has:link${before}`, { token: w.owner.token });
      assert.equal(r.status, 200, r.text);
      calls.push(r.body);
      if (!r.body.hasMore) break;
      assert.ok(r.body.next, 'a page with more says where');
      before = `&before=${r.body.next}`;
      assert.ok(calls.length < 10, 'each call moves back');
    }
    assert.deepEqual(calls[0].messages, [], 'the first window holds no link');
    assert.equal(calls[0].hasMore, true);
    assert.ok(calls.length >= 4, `${calls.length} calls for 38 messages in windows of 10`);
    assert.deepEqual(calls.flatMap((b) => b.messages.map((m) => m.id)), linked.reverse(), 'all found, newest first, once');
    assert.equal(calls.at(-1).next, null);
    // Words go through the index, paged by what they found.
    const words = await api(own.url, 'GET', `/api/servers/${w.sid}/messages/search?q=conversa&limit=25`, { token: w.owner.token });
    assert.equal(words.body.messages.length, 25);
    assert.equal(words.body.next, words.body.messages[24].id);
  } finally {
    await own.stop();
  }
});

test('searches count 20 per 10 s per account; a malformed one counts nothing', async () => {
  const w = await serverWithMembers(srv.url, 0);
  const search = (q) => api(srv.url, 'GET', `/api/servers/${w.sid}/messages/search?q=${encodeURIComponent(q)}`, { token: w.owner.token });
  assert.equal((await search('has:nada')).status, 400);
  const statuses = [];
  for (let i = 0; i < 21; i++) statuses.push((await search(`palavra${i}`)).status);
  assert.deepEqual(statuses, [...Array(20).fill(200), 429]);
});
