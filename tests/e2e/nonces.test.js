// A send retried after a network failure posts once: nonce with enforceNonce on every message
// send (bot, person, DM, webhook, follow-up), also when the two tries reach two nodes at once.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, appWithBot, install, serverWithMembers, gatewayConnect, nextEvent: next, sharedServer, register } = require('./helpers');
const { P } = require('./permissions');

const sockets = [];
const srv = sharedServer({ args: ['--test-clock'] }, sockets);

async function world() {
  const w = await serverWithMembers(srv.url, 1);
  const info = await appWithBot(srv.url, w.owner, { intents: ['messages.read', 'interactions.receive'] });
  await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  const cid = w.server.channels[0].id;
  const history = async () => (await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: w.owner.token })).body.messages;
  return { ...w, info, cid, history };
}

test('bot and person sends: the same nonce enforced makes one message and one event; without enforceNonce, two', async () => {
  const w = await world();
  const person = await gatewayConnect(srv.url, { auth: { token: w.members[0].token } }, sockets);
  const botSend = (body, node) => api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${w.cid}/messages`, { token: w.info.botToken, body, node });
  const first = await botSend({ content: 'uma vez', nonce: 'job-42', enforceNonce: true });
  assert.equal(first.status, 200, first.text);
  const again = await botSend({ content: 'uma vez (de novo)', nonce: 'job-42', enforceNonce: true });
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.message.id, first.body.message.id);
  assert.equal(again.body.message.content, 'uma vez', 'the first answer, not the second body');
  const loose = await botSend({ content: 'sem exigir', nonce: 'job-42' });
  assert.notEqual(loose.body.message.id, first.body.message.id, 'a nonce not enforced is only a label');
  assert.equal((await w.history()).filter((m) => m.content.startsWith('uma vez')).length, 1);

  const events = [];
  person.on('MESSAGE_CREATE', (m) => events.push(m.content));
  const human = (body) => api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${w.cid}/messages`, { token: w.owner.token, body });
  const h1 = await human({ content: 'olá', nonce: 17, enforceNonce: true });
  const h2 = await human({ content: 'olá', nonce: 17, enforceNonce: true });
  assert.equal(h1.body.message.id, h2.body.message.id, 'a numeric nonce too');
  // Events arrive in order: once 'fim' is in, any second 'olá' would be too.
  const end = new Promise((resolve) => person.on('MESSAGE_CREATE', (m) => m.content === 'fim' && resolve()));
  await human({ content: 'fim' });
  await end;
  assert.deepEqual(events.filter((c) => c === 'olá'), ['olá'], 'one event');
  // Another author's same nonce is theirs.
  assert.notEqual((await botSend({ content: 'x', nonce: '17', enforceNonce: true })).body.message.id, h1.body.message.id);

  // A day later the nonce is free again.
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 24 * 3600 * 1000 + 1000 } });
  const later = await botSend({ content: 'outro dia', nonce: 'job-42', enforceNonce: true });
  assert.notEqual(later.body.message.id, first.body.message.id);

  for (const [body, error] of [[{ content: 'x', enforceNonce: true }, 'nonce: obrigatório com enforceNonce'],
    [{ content: 'x', nonce: 'n'.repeat(65), enforceNonce: true }, 'nonce: deve ter entre 1 e 64 caracteres'],
    [{ content: 'x', nonce: '', enforceNonce: true }, 'nonce: deve ter entre 1 e 64 caracteres'],
    [{ content: 'x', nonce: 'a', enforceNonce: 'sim' }, 'enforceNonce: deve ser verdadeiro ou falso']]) {
    const r = await botSend(body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(r.body.error, error);
  }
});

test('the same nonce sent to two nodes at once makes one message', async () => {
  const w = await world();
  const send = (node) => api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${w.cid}/messages`, { token: w.info.botToken, body: { content: 'corrida', nonce: 'race-1', enforceNonce: true }, node });
  const [a, b] = await Promise.all([send(0), send(1)]);
  assert.equal(a.status, 200, a.text);
  assert.equal(b.status, 200, b.text);
  assert.equal(a.body.message.id, b.body.message.id);
  assert.equal((await w.history()).filter((m) => m.content === 'corrida').length, 1);
});

test('DM, webhook and follow-up sends take the same nonce', async () => {
  const w = await world();
  const bia = w.members[0];
  const dm = (await api(srv.url, 'POST', '/api/users/@me/dms', { token: w.owner.token, body: { userId: bia.user.id } })).body.channel.id;
  const dmSend = () => api(srv.url, 'POST', `/api/dms/${dm}/messages`, { token: w.owner.token, body: { content: 'oi, Bia', nonce: 'dm-1', enforceNonce: true } });
  const d1 = await dmSend();
  const d2 = await dmSend();
  assert.equal(d1.status, 200, d1.text);
  assert.equal(d1.body.message.id, d2.body.message.id);
  assert.equal((await api(srv.url, 'GET', `/api/dms/${dm}/messages`, { token: bia.token })).body.messages.length, 1);

  const { url } = (await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${w.cid}/webhooks`, { token: w.owner.token, body: { name: 'CI' } })).body;
  const hook = () => fetch(`${url}?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'build 7', nonce: 'build-7', enforceNonce: true }) }).then((r) => r.json());
  assert.equal((await hook()).message.id, (await hook()).message.id);

  const bot = await gatewayConnect(srv.url, { auth: { token: w.info.botToken } }, sockets);
  await api(srv.url, 'PUT', '/api/bot/commands', { token: w.info.botToken, body: { commands: [{ name: 'pensa', description: 'd' }] } });
  const created = next(bot, 'INTERACTION_CREATE');
  await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${w.cid}/interactions`, { token: w.owner.token, body: { type: 'command', applicationId: w.info.app.id, commandName: 'pensa' } });
  const ev = await created;
  await api(srv.url, 'POST', `/api/bot/interactions/${ev.id}/respond`, { token: w.info.botToken, body: { type: 'defer' } });
  const follow = () => api(srv.url, 'POST', `/api/interactions/${ev.id}/${ev.token}/followups`, { body: { content: 'pronto', nonce: 'f-1', enforceNonce: true } });
  const f1 = await follow();
  const f2 = await follow();
  assert.equal(f1.status, 200, f1.text);
  assert.equal(f1.body.message.id, f2.body.message.id);
  void register;
});
