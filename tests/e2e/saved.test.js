// Saved messages ("Salvos"): a person keeps messages they can read in a list of their own, the
// last saved first, paged; taken back, or gone with the message; a message that became unreadable
// to them is left out of the list without saying what it was; their other pages hear
// SAVED_UPDATE.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { sharedServer, api, register, serverWithMembers, acquaint, gatewayConnect, nextEvent } = require('./helpers');
const { P } = require('./permissions');

const sockets = [];
const srv = sharedServer({ args: ['--rate-limit-scale', '100'] }, sockets);

test('save, list, page, take back; only what one can read; gone with the message', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const [ana] = w.members;
  const cid = w.server.channels[0].id;
  const url = `/api/servers/${w.sid}/channels/${cid}/messages`;
  const sent = [];
  for (let i = 0; i < 4; i++) sent.push((await api(srv.url, 'POST', url, { token: w.owner.token, body: { content: `mensagem ${i}` } })).body.message);
  const page = await gatewayConnect(srv.url, { auth: { token: ana.token }, transports: ['websocket'] }, sockets);
  const told = nextEvent(page, 'SAVED_UPDATE');
  for (const m of sent) {
    const r = await api(srv.url, 'PUT', `/api/users/@me/saved/${m.id}`, { token: ana.token });
    assert.equal(r.status, 200, r.text);
    await new Promise((ok) => setTimeout(ok, 3)); // distinct times, for the order
  }
  assert.deepEqual(await told, { messageId: sent[0].id, saved: true });
  assert.equal((await api(srv.url, 'PUT', `/api/users/@me/saved/${sent[0].id}`, { token: ana.token })).status, 200, 'again: nothing changes');

  const first = (await api(srv.url, 'GET', '/api/users/@me/saved?limit=3', { token: ana.token })).body;
  assert.deepEqual(first.saved.map((x) => x.message.content), ['mensagem 3', 'mensagem 2', 'mensagem 1'], 'the last saved first');
  assert.ok(first.next);
  const rest = (await api(srv.url, 'GET', `/api/users/@me/saved?limit=3&before=${encodeURIComponent(first.next)}`, { token: ana.token })).body;
  assert.deepEqual(rest.saved.map((x) => x.message.content), ['mensagem 0']);
  assert.equal(rest.next, null);
  assert.deepEqual((await api(srv.url, 'GET', '/api/users/@me/saved', { token: w.owner.token })).body.saved, [], 'one\'s own list');

  assert.equal((await api(srv.url, 'DELETE', `/api/users/@me/saved/${sent[3].id}`, { token: ana.token })).status, 200);
  assert.equal((await api(srv.url, 'DELETE', `/api/users/@me/saved/${sent[3].id}`, { token: ana.token })).status, 404);
  await api(srv.url, 'DELETE', `${url}/${sent[2].id}`, { token: w.owner.token });
  assert.deepEqual((await api(srv.url, 'GET', '/api/users/@me/saved', { token: ana.token })).body.saved.map((x) => x.message.content), ['mensagem 1', 'mensagem 0'], 'gone with the message');

  // The channel closed to her: left out, not revealed.
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/channels/${cid}/overwrites/${w.sid}`, { token: w.owner.token, body: { type: 'role', deny: P.VER_CANAL } });
  assert.deepEqual((await api(srv.url, 'GET', '/api/users/@me/saved', { token: ana.token })).body.saved, []);
});

test('what one cannot read cannot be saved; bad input', async () => {
  const w = await serverWithMembers(srv.url, 0);
  const m = (await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${w.server.channels[0].id}/messages`, { token: w.owner.token, body: { content: 'só nosso' } })).body.message;
  const stranger = await register(srv.url);
  assert.equal((await api(srv.url, 'PUT', `/api/users/@me/saved/${m.id}`, { token: stranger.token })).status, 404);
  assert.equal((await api(srv.url, 'PUT', '/api/users/@me/saved/01a1fe3b-0000-7000-8000-000000000000', { token: stranger.token })).status, 404);
  assert.equal((await api(srv.url, 'PUT', '/api/users/@me/saved/nao-e-id', { token: stranger.token })).status, 404);
  for (const q of ['?limit=0', '?limit=51', '?before=ontem']) assert.equal((await api(srv.url, 'GET', `/api/users/@me/saved${q}`, { token: stranger.token })).status, 400, q);
  const bot = await (require('./helpers').appWithBot)(srv.url, w.owner);
  assert.equal((await api(srv.url, 'PUT', `/api/users/@me/saved/${m.id}`, { token: bot.botToken })).status, 403, 'people only');
  // A DM's message, saved by either person.
  const bia = await register(srv.url);
  await acquaint(srv.url, stranger, bia);
  const dm = (await api(srv.url, 'POST', '/api/users/@me/dms', { token: stranger.token, body: { userId: bia.user.id } })).body.channel;
  const said = (await api(srv.url, 'POST', `/api/dms/${dm.id}/messages`, { token: stranger.token, body: { content: 'guarda isso' } })).body.message;
  assert.equal((await api(srv.url, 'PUT', `/api/users/@me/saved/${said.id}`, { token: bia.token })).status, 200);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me/saved', { token: bia.token })).body.saved[0].message.content, 'guarda isso');
});
