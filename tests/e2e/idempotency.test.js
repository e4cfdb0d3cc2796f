// Idempotency-Key: a mutation retried with the same key gets the first answer and is not done
// twice (a toggle stays toggled once), on any node; the same key with another request is 409.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, appWithBot, install, serverWithMembers, gatewayConnect, nextEvent: next, sharedServer } = require('./helpers');
const { P } = require('./permissions');

const sockets = [];
const srv = sharedServer({ args: ['--test-clock'] }, sockets);

async function world() {
  const w = await serverWithMembers(srv.url, 0);
  const info = await appWithBot(srv.url, w.owner, { intents: ['interactions.receive'] });
  await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS | P.ADICIONAR_REACOES | P.FIXAR_MENSAGENS });
  const cid = w.server.channels[0].id;
  const base = `/api/bot/servers/${w.sid}/channels/${cid}/messages`;
  const sent = await api(srv.url, 'POST', base, { token: info.botToken, body: { content: 'alvo' } });
  const call = (method, p, body, key, node) => api(srv.url, method, p, { token: info.botToken, body, headers: key ? { 'idempotency-key': key } : {}, node });
  return { ...w, info, cid, base, mid: sent.body.message.id, call };
}

test('a retried toggle happens once: react and pin answer the first answer again, marked as replayed', async () => {
  const w = await world();
  const react = `/api/servers/${w.sid}/channels/${w.cid}/messages/${w.mid}/react`;
  const first = await w.call('POST', react, { emoji: '👍' }, 'react-1');
  assert.equal(first.status, 200, first.text);
  assert.equal(first.body.reactions[0].count, 1);
  const again = await w.call('POST', react, { emoji: '👍' }, 'react-1');
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, first.body, 'the first answer, not an un-react');
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(first.headers.get('idempotent-replayed'), null);
  const msg = await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${w.cid}/messages`, { token: w.owner.token });
  assert.equal(msg.body.messages.find((m) => m.id === w.mid).reactions[0].count, 1, 'done once');
  // Without a key the toggle toggles.
  assert.deepEqual((await w.call('POST', react, { emoji: '👍' })).body.reactions, []);

  const pin = `/api/servers/${w.sid}/channels/${w.cid}/messages/${w.mid}/pin`;
  assert.equal((await w.call('POST', pin, {}, 'pin-1')).body.pinned, true);
  assert.equal((await w.call('POST', pin, {}, 'pin-1')).body.pinned, true, 'not unpinned by the retry');

  // The same key with another request; a bad key; a read ignores the header.
  const other = await w.call('POST', react, { emoji: '🎉' }, 'react-1');
  assert.equal(other.status, 409);
  assert.equal(other.body.error, 'Idempotency-Key já usada com outro pedido (método, caminho ou corpo)');
  assert.equal((await w.call('POST', react, { emoji: '🎉' }, 'k'.repeat(65))).body.error, 'Idempotency-Key: use de 1 a 64 caracteres visíveis (ASCII)');
  assert.equal((await w.call('GET', '/api/bot/@me', undefined, 'react-1')).status, 200);
  // Another caller's same key is theirs.
  const person = await api(srv.url, 'POST', react, { token: w.owner.token, body: { emoji: '🎉' }, headers: { 'idempotency-key': 'react-1' } });
  assert.equal(person.status, 200, person.text);

  // A day later the key is free again.
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 24 * 3600 * 1000 + 1000 } });
  const later = await w.call('POST', react, { emoji: '👍' }, 'react-1');
  assert.equal(later.headers.get('idempotent-replayed'), null);
});

test('an answer on the writer lane (respond) and an edit are replayed, not refused', async () => {
  const w = await world();
  await api(srv.url, 'PUT', '/api/bot/commands', { token: w.info.botToken, body: { commands: [{ name: 'oi', description: 'd' }] } });
  const bot = await gatewayConnect(srv.url, { auth: { token: w.info.botToken } }, sockets);
  const created = next(bot, 'INTERACTION_CREATE');
  await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${w.cid}/interactions`, { token: w.owner.token, body: { type: 'command', applicationId: w.info.app.id, commandName: 'oi' } });
  const ev = await created;
  const respond = () => w.call('POST', `/api/bot/interactions/${ev.id}/respond`, { type: 'message', data: { content: 'olá' } }, 'resp-1');
  const r1 = await respond();
  assert.equal(r1.status, 200, r1.text);
  const r2 = await respond();
  assert.equal(r2.status, 200, 'the first answer, not 409 "already answered"');
  assert.equal(r2.body.message.id, r1.body.message.id);
  const edit = () => w.call('PATCH', `${w.base}/${w.mid}`, { content: 'editada' }, 'edit-1');
  const e1 = await edit();
  const e2 = await edit();
  assert.equal(e1.status, 200, e1.text);
  assert.deepEqual(e2.body, e1.body);
});

test('the same key on two nodes at once: done once, the other waits its turn (409) or replays', async () => {
  const w = await world();
  const react = `/api/servers/${w.sid}/channels/${w.cid}/messages/${w.mid}/react`;
  const [a, b] = await Promise.all([w.call('POST', react, { emoji: '🔥' }, 'race', 0), w.call('POST', react, { emoji: '🔥' }, 'race', 1)]);
  const statuses = [a.status, b.status].sort();
  assert.ok(statuses[0] === 200 && (statuses[1] === 200 || statuses[1] === 409), String(statuses));
  const msg = await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${w.cid}/messages`, { token: w.owner.token });
  assert.equal(msg.body.messages.find((m) => m.id === w.mid).reactions.find((r) => r.emoji === '🔥').count, 1);
  const settled = await w.call('POST', react, { emoji: '🔥' }, 'race');
  assert.equal(settled.status, 200);
  assert.equal(settled.headers.get('idempotent-replayed'), 'true');
});
