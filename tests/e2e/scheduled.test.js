// Scheduled messages and reminders: sent or told by the server at their time with no page open,
// once (on one node or two, and after a restart that came before their time), listed, edited and
// cancelled; a message that can no longer be sent is marked failed with the reason; and every bad
// time, room and limit refused.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { sharedServer, startServer, api, register, serverWithMembers, acquaint, gatewayConnect, nextEvent, eventually } = require('./helpers');
const { P } = require('./permissions');

const sockets = [];
const srv = sharedServer({ args: ['--rate-limit-scale', '100', '--test-clock'] }, sockets);
const SCHEDULED = '/api/users/@me/scheduled-messages';
// The shared server's clock runs ahead of this one once a test moves it: times are its own.
let ahead = 0;
const inMs = (ms) => new Date(Date.now() + ahead + ms).toISOString();
async function moveClock(ms) {
  const r = await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: ms } });
  ahead = r.body.nowMs - Date.now();
}
const history = async (base, who, path) => (await api(base, 'GET', path, { token: who.token })).body.messages;

async function world(base = srv.url) {
  const w = await serverWithMembers(base, 1);
  w.cid = w.server.channels[0].id;
  w.path = `/api/servers/${w.sid}/channels/${w.cid}/messages`;
  w.schedule = (who, body) => api(base, 'POST', SCHEDULED, { token: who.token, body: { serverId: w.sid, channelId: w.cid, ...body } });
  return w;
}

test('a message scheduled a moment ahead is sent by the server, once, and its person\'s pages are told', async () => {
  const w = await world();
  const [ana] = w.members;
  const page = await gatewayConnect(srv.url, { auth: { ticket: (await api(srv.url, 'POST', '/api/gateway/ticket', { token: ana.token })).body.ticket } }, sockets);
  const told = nextEvent(page, 'SCHEDULED_UPDATE');
  const made = await w.schedule(ana, { content: 'bom dia, @everyone não: só bom dia', sendAt: inMs(1500) });
  assert.equal(made.status, 201, made.text);
  const s = made.body.scheduled;
  assert.equal(s.state, 'pending');
  assert.equal(s.content, 'bom dia, @everyone não: só bom dia');
  assert.equal(s.serverId, w.sid);
  assert.equal(s.channelId, w.cid);
  assert.equal((await told).scheduled.id, s.id);
  assert.deepEqual((await api(srv.url, 'GET', SCHEDULED, { token: ana.token })).body.scheduled.map((x) => x.id), [s.id]);
  assert.deepEqual((await api(srv.url, 'GET', SCHEDULED, { token: w.owner.token })).body.scheduled, [], 'one\'s own list');
  const sent = nextEvent(page, 'SCHEDULED_UPDATE', 10000);
  await eventually(async () => (await history(srv.url, w.owner, w.path)).some((m) => m.content === s.content), 10000, 'the message sent');
  const found = (await history(srv.url, w.owner, w.path)).filter((m) => m.content === s.content);
  assert.equal(found.length, 1, 'once');
  assert.equal(found[0].fromId, ana.user.id, 'as its person');
  const update = await sent;
  assert.equal(update.scheduled.state, 'sent');
  assert.equal(update.scheduled.messageId, found[0].id);
  assert.deepEqual((await api(srv.url, 'GET', SCHEDULED, { token: ana.token })).body.scheduled, [], 'no longer waiting');
});

test('hours ahead: edited, moved, cancelled; the clock reaches it and only what was kept is sent', async () => {
  const w = await world();
  const [ana] = w.members;
  const kept = (await w.schedule(ana, { content: 'primeira versão', sendAt: inMs(3 * 3600e3) })).body.scheduled;
  const dropped = (await w.schedule(ana, { content: 'esta não vai', sendAt: inMs(3 * 3600e3) })).body.scheduled;
  const edited = await api(srv.url, 'PATCH', `${SCHEDULED}/${kept.id}`, { token: ana.token, body: { content: 'versão final', sendAt: inMs(2 * 3600e3) } });
  assert.equal(edited.status, 200, edited.text);
  assert.equal(edited.body.scheduled.content, 'versão final');
  assert.ok(Date.parse(edited.body.scheduled.sendAt) < Date.parse(kept.sendAt));
  assert.equal((await api(srv.url, 'DELETE', `${SCHEDULED}/${dropped.id}`, { token: ana.token })).status, 200);
  assert.equal((await api(srv.url, 'DELETE', `${SCHEDULED}/${dropped.id}`, { token: ana.token })).status, 404);
  assert.equal((await api(srv.url, 'PATCH', `${SCHEDULED}/${kept.id}`, { token: w.owner.token, body: { content: 'não é meu' } })).status, 404, 'someone else\'s');
  await moveClock(2 * 3600e3 + 1000);
  await eventually(async () => (await history(srv.url, w.owner, w.path)).some((m) => m.content === 'versão final'), 10000, 'the edited one sent');
  await moveClock(3600e3);
  await new Promise((ok) => setTimeout(ok, 2500)); // two of the runner's seconds: a cancelled one would be sent by now
  assert.ok(!(await history(srv.url, w.owner, w.path)).some((m) => m.content === 'esta não vai'), 'the cancelled one never');
  assert.equal((await api(srv.url, 'PATCH', `${SCHEDULED}/${kept.id}`, { token: ana.token, body: { content: 'tarde' } })).status, 404, 'sent: no longer editable');
});

test('one that can no longer be sent is failed with the reason; edited, it waits again', async () => {
  const w = await world();
  const [ana] = w.members;
  const page = await gatewayConnect(srv.url, { auth: { ticket: (await api(srv.url, 'POST', '/api/gateway/ticket', { token: ana.token })).body.ticket } }, sockets);
  const s = (await w.schedule(ana, { content: 'vou perder a voz', sendAt: inMs(1500) })).body.scheduled;
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/channels/${w.cid}/overwrites/${ana.user.id}`, { token: w.owner.token, body: { type: 'member', deny: P.ENVIAR_MENSAGENS } });
  await eventually(() => page.received.some((x) => x.name === 'SCHEDULED_UPDATE' && x.payload.scheduled && x.payload.scheduled.state === 'failed'),
    10000, 'told it failed');
  const [listed] = (await api(srv.url, 'GET', SCHEDULED, { token: ana.token })).body.scheduled;
  assert.equal(listed.state, 'failed');
  assert.match(listed.error, /ENVIAR_MENSAGENS/);
  assert.ok(!(await history(srv.url, w.owner, w.path)).some((m) => m.content === s.content));
  await api(srv.url, 'DELETE', `/api/servers/${w.sid}/channels/${w.cid}/overwrites/${ana.user.id}`, { token: w.owner.token });
  const again = await api(srv.url, 'PATCH', `${SCHEDULED}/${s.id}`, { token: ana.token, body: { sendAt: inMs(1200) } });
  assert.equal(again.body.scheduled.state, 'pending');
  assert.equal(again.body.scheduled.error, null);
  await eventually(async () => (await history(srv.url, w.owner, w.path)).some((m) => m.content === s.content), 10000, 'sent once allowed again');
});

test('into a conversation; refusals: times, rooms, sizes, bots, the 101st', async () => {
  const w = await world();
  const [ana] = w.members;
  await acquaint(srv.url, ana, w.owner);
  const dm = (await api(srv.url, 'POST', '/api/users/@me/dms', { token: ana.token, body: { userId: w.owner.user.id } })).body.channel;
  const inDm = await api(srv.url, 'POST', SCHEDULED, { token: ana.token, body: { channelId: dm.id, content: 'oi em particular', sendAt: inMs(1200) } });
  assert.equal(inDm.status, 201, inDm.text);
  assert.equal(inDm.body.scheduled.serverId, null);
  await eventually(async () => (await history(srv.url, w.owner, `/api/dms/${dm.id}/messages`)).some((m) => m.content === 'oi em particular'), 10000, 'sent in the conversation');

  const bad = [
    [{ content: 'x', sendAt: inMs(-1000) }, 400, /^sendAt: deve estar no futuro/],
    [{ content: 'x', sendAt: inMs(31 * 86400e3) }, 400, /^sendAt: no máximo 30 dias/],
    [{ content: 'x' }, 400, /^sendAt: obrigatório/],
    [{ content: 'x', sendAt: 'amanhã' }, 400, /^sendAt: /],
    [{ content: '   ', sendAt: inMs(60e3) }, 400, /^content: /],
    [{ content: 'x'.repeat(4001), sendAt: inMs(60e3) }, 400, /^content: /],
  ];
  for (const [body, status, error] of bad) {
    const r = await w.schedule(ana, body);
    assert.equal(r.status, status, JSON.stringify(body));
    assert.match(r.body.error, error);
  }
  const stranger = await register(srv.url);
  assert.equal((await w.schedule(stranger, { content: 'x', sendAt: inMs(60e3) })).status, 404, 'not a member');
  assert.equal((await api(srv.url, 'POST', SCHEDULED, { token: stranger.token, body: { channelId: dm.id, content: 'x', sendAt: inMs(60e3) } })).status, 404, 'not their conversation');
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/channels/${w.cid}/overwrites/${ana.user.id}`, { token: w.owner.token, body: { type: 'member', deny: P.ENVIAR_MENSAGENS } });
  assert.equal((await w.schedule(ana, { content: 'x', sendAt: inMs(60e3) })).status, 403, 'a room she cannot send in');
  const bot = await (require('./helpers').appWithBot)(srv.url, w.owner);
  assert.equal((await api(srv.url, 'GET', SCHEDULED, { token: bot.botToken })).status, 403, 'people only');
  for (let i = 0; i < 100; i++) assert.equal((await w.schedule(w.owner, { content: `n${i}`, sendAt: inMs(86400e3) })).status, 201);
  const full = await w.schedule(w.owner, { content: 'n100', sendAt: inMs(86400e3) });
  assert.equal(full.status, 400);
  assert.match(full.body.error, /100 mensagens agendadas/);
});

test('a restart before its time: sent once when the server is back', async () => {
  const own = await startServer({ single: true });
  let again;
  try {
    const w = await world(own.url);
    const [ana] = w.members;
    const soon = new Date(Date.now() + 2500).toISOString(); // its own server: the real clock
    assert.equal((await w.schedule(ana, { content: 'depois do reinício', sendAt: soon })).status, 201);
    await own.stop();
    await new Promise((ok) => setTimeout(ok, 3000)); // its time passes with no server
    again = await startServer({ dir: own.dir, single: true });
    await eventually(async () => (await history(again.url, w.owner, w.path)).some((m) => m.content === 'depois do reinício'), 10000, 'sent after the restart');
    await new Promise((ok) => setTimeout(ok, 2000));
    assert.equal((await history(again.url, w.owner, w.path)).filter((m) => m.content === 'depois do reinício').length, 1, 'once');
  } finally {
    await own.stop().catch(() => {});
    if (again) await again.stop();
  }
});

test('many due at once are each sent once (two nodes: whichever claims first)', async () => {
  const w = await world();
  const [ana] = w.members;
  const at = inMs(2000);
  for (let i = 0; i < 30; i++) assert.equal((await w.schedule(i % 2 ? ana : w.owner, { content: `lote ${i}`, sendAt: at })).status, 201);
  await eventually(async () => (await history(srv.url, w.owner, w.path)).filter((m) => m.content.startsWith('lote ')).length >= 30, 15000, 'all sent');
  await new Promise((ok) => setTimeout(ok, 2000));
  const sent = (await history(srv.url, w.owner, w.path)).filter((m) => m.content.startsWith('lote ')).map((m) => m.content).sort();
  assert.deepEqual(sent, Array.from({ length: 30 }, (_, i) => `lote ${i}`).sort(), 'each once');
});

test('reminders: about a message or in one\'s own words, told when due, then gone; refusals', async () => {
  const w = await world();
  const [ana] = w.members;
  const m = (await api(srv.url, 'POST', w.path, { token: w.owner.token, body: { content: 'A entrega é na sexta-feira, não esqueçam.' } })).body.message;
  const page = await gatewayConnect(srv.url, { auth: { ticket: (await api(srv.url, 'POST', '/api/gateway/ticket', { token: ana.token })).body.ticket } }, sockets);
  const R = '/api/users/@me/reminders';
  const made = await api(srv.url, 'POST', R, { token: ana.token, body: { messageId: m.id, remindAt: inMs(1500) } });
  assert.equal(made.status, 201, made.text);
  assert.equal(made.body.reminder.messageId, m.id);
  const own = await api(srv.url, 'POST', R, { token: ana.token, body: { note: 'ligar para a Bia', remindAt: inMs(3 * 3600e3) } });
  assert.equal(own.status, 201, own.text);
  assert.deepEqual((await api(srv.url, 'GET', R, { token: ana.token })).body.reminders.map((r) => r.id), [made.body.reminder.id, own.body.reminder.id], 'the soonest first');
  const due = await nextEvent(page, 'REMINDER_DUE', 10000);
  assert.equal(due.reminder.id, made.body.reminder.id);
  assert.equal(due.message.id, m.id);
  assert.equal(due.message.preview, m.content);
  assert.equal(due.message.serverId, w.sid);
  assert.deepEqual((await api(srv.url, 'GET', R, { token: ana.token })).body.reminders.map((r) => r.id), [own.body.reminder.id], 'gone once told');
  assert.equal((await api(srv.url, 'DELETE', `${R}/${own.body.reminder.id}`, { token: ana.token })).status, 200);
  assert.equal((await api(srv.url, 'DELETE', `${R}/${own.body.reminder.id}`, { token: ana.token })).status, 404);

  const stranger = await register(srv.url);
  assert.equal((await api(srv.url, 'POST', R, { token: stranger.token, body: { messageId: m.id, remindAt: inMs(60e3) } })).status, 404, 'a message one cannot read');
  for (const [body, error] of [[{ remindAt: inMs(60e3) }, /^note: obrigatório/], [{ note: 'x', remindAt: inMs(-5) }, /^remindAt: deve estar no futuro/],
    [{ note: 'x' }, /^remindAt: obrigatório/], [{ note: 'x'.repeat(501), remindAt: inMs(60e3) }, /^note: /], [{ note: 'x', remindAt: inMs(366 * 86400e3) }, /^remindAt: no máximo 365 dias/]]) {
    const r = await api(srv.url, 'POST', R, { token: ana.token, body });
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.match(r.body.error, error);
  }
});
