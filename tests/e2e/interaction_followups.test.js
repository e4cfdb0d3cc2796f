// Answering later: defer (a thinking message) or deferUpdate, then the original answer edited or
// deleted and up to five follow-ups, through the interaction's own token for 15 minutes.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, appWithBot, install, serverWithMembers, gatewayConnect, nextEvent: next, sharedServer } = require('./helpers');
const { P } = require('./permissions');

const sockets = [];
const srv = sharedServer({ args: ['--test-clock'] }, sockets);

async function world() {
  const w = await serverWithMembers(srv.url, 1);
  const info = await appWithBot(srv.url, w.owner, { intents: ['interactions.receive'] });
  await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  await api(srv.url, 'PUT', '/api/bot/commands', { token: info.botToken, body: { commands: [{ name: 'pensa', description: 'Demora' }] } });
  const cid = w.server.channels[0].id;
  const member = w.members[0];
  const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
  const person = await gatewayConnect(srv.url, { auth: { token: member.token } }, sockets);
  const command = async () => {
    const created = next(bot, 'INTERACTION_CREATE');
    const r = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${cid}/interactions`, { token: member.token, body: { type: 'command', applicationId: info.app.id, commandName: 'pensa' } });
    assert.equal(r.status, 202, r.text);
    return created;
  };
  const respond = (ev, body) => api(srv.url, 'POST', `/api/bot/interactions/${ev.id}/respond`, { token: info.botToken, body });
  const later = (ev, method, suffix, body, token = ev.token) => api(srv.url, method, `/api/interactions/${ev.id}/${token}${suffix}`, { body });
  const history = async () => (await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: member.token })).body.messages;
  return { ...w, info, cid, member, bot, person, command, respond, later, history };
}

test('defer: a thinking message everyone sees, then the answer in its place, then follow-ups; without the bot token', async () => {
  const w = await world();
  const ev = await w.command();
  const thinking = next(w.person, 'MESSAGE_CREATE');
  const d = await w.respond(ev, { type: 'defer' });
  assert.equal(d.status, 200, d.text);
  assert.equal(d.body.message.flags, 128);
  assert.equal(d.body.message.content, '');
  assert.equal(d.body.message.commandName, 'pensa');
  assert.equal((await thinking).flags, 128);
  // The first answer is given: another is 409.
  const again = await w.respond(ev, { type: 'message', data: { content: 'tarde' } });
  assert.equal(again.status, 409);

  const updated = next(w.person, 'MESSAGE_UPDATE');
  const edit = await w.later(ev, 'PATCH', '/messages/@original', { content: 'Pronto: 42' });
  assert.equal(edit.status, 200, edit.text);
  assert.equal(edit.body.message.id, d.body.message.id);
  assert.equal(edit.body.message.content, 'Pronto: 42');
  assert.equal(edit.body.message.flags, 0, 'no longer thinking');
  assert.equal((await updated).content, 'Pronto: 42');
  assert.equal((await w.history()).find((m) => m.id === d.body.message.id).content, 'Pronto: 42');

  for (let i = 1; i <= 5; i++) {
    const f = await w.later(ev, 'POST', '/followups', { content: `mais ${i}` });
    assert.equal(f.status, 200, f.text);
    assert.equal(f.body.message.applicationId, w.info.app.id);
    assert.equal(f.body.message.commandInvokerId, w.member.user.id);
  }
  const sixth = await w.later(ev, 'POST', '/followups', { content: 'demais' });
  assert.equal(sixth.status, 400);
  assert.equal(sixth.body.error, 'followups: no máximo 5 mensagens de acompanhamento por interação');

  const gone = await w.later(ev, 'DELETE', '/messages/@original');
  assert.equal(gone.status, 200, gone.text);
  assert.ok(!(await w.history()).some((m) => m.id === d.body.message.id));
  assert.equal((await w.later(ev, 'DELETE', '/messages/@original')).status, 404);
});

test('the token: only its own interaction, only after an answer, only for 15 minutes', async () => {
  const w = await world();
  const a = await w.command();
  const b = await w.command();
  const early = await w.later(a, 'POST', '/followups', { content: 'cedo' });
  assert.equal(early.status, 409, 'a follow-up needs a first answer');
  assert.equal((await w.respond(a, { type: 'defer' })).status, 200);
  const other = await w.later(a, 'PATCH', '/messages/@original', { content: 'x' }, b.token);
  assert.equal(other.status, 403);
  assert.equal(other.body.error, 'Este token não é o desta interação');
  assert.equal((await w.later(a, 'PATCH', '/messages/@original', { content: 'x' }, 'inventado')).status, 403);
  assert.equal((await api(srv.url, 'POST', `/api/interactions/01a1fe3b-0000-7000-8000-000000000000/${a.token}/followups`, { body: { content: 'x' } })).status, 404);
  const bad = await w.later(a, 'POST', '/followups', { content: '' });
  assert.equal(bad.status, 400);
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 16 * 60 * 1000 } });
  const late = await w.later(a, 'PATCH', '/messages/@original', { content: 'tarde demais' });
  assert.equal(late.status, 404);
  assert.equal(late.body.error, 'Interação não encontrada ou expirada');
});

test('an ephemeral defer: only the invoker sees the thinking and the answer; nothing is kept', async () => {
  const w = await world();
  const ev = await w.command();
  const mine = next(w.person, 'MESSAGE_CREATE');
  const d = await w.respond(ev, { type: 'defer', data: { ephemeral: true } });
  assert.equal(d.status, 200, d.text);
  assert.equal(d.body.message.flags, 128 | 64);
  assert.equal((await mine).id, d.body.message.id);
  const update = next(w.person, 'MESSAGE_UPDATE');
  const edit = await w.later(ev, 'PATCH', '/messages/@original', { content: 'só para você' });
  assert.equal(edit.status, 200, edit.text);
  const seen = await update;
  assert.deepEqual([seen.id, seen.content, seen.flags], [d.body.message.id, 'só para você', 64]);
  const quiet = next(w.person, 'MESSAGE_CREATE');
  const f = await w.later(ev, 'POST', '/followups', { content: 'psiu', ephemeral: true });
  assert.equal(f.status, 200, f.text);
  assert.equal((await quiet).flags, 64);
  assert.ok(!(await w.history()).some((m) => m.content === 'só para você' || m.content === 'psiu'));
});

test('deferUpdate on a component: nothing visible, then the component\'s message edited through the token', async () => {
  const w = await world();
  const ev = await w.command();
  const card = await w.respond(ev, { type: 'message', data: { content: 'cartão', components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Ir', customId: 'ir' }] }] } });
  assert.equal(card.status, 200, card.text);
  const clicked = next(w.bot, 'INTERACTION_CREATE');
  const click = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${w.cid}/interactions`, { token: w.member.token, body: { type: 'component', messageId: card.body.message.id, customId: 'ir' } });
  assert.equal(click.status, 202, click.text);
  const cev = await clicked;
  const du = await w.respond(cev, { type: 'deferUpdate' });
  assert.equal(du.status, 200, du.text);
  assert.deepEqual(du.body, { deferred: true });
  const edit = await w.later(cev, 'PATCH', '/messages/@original', { content: 'cartão, depois' });
  assert.equal(edit.status, 200, edit.text);
  assert.equal(edit.body.message.id, card.body.message.id);
  assert.equal(edit.body.message.components.length, 1, 'what the edit does not name stays');
  // deferUpdate is for components only.
  const cmd = await w.command();
  const wrong = await w.respond(cmd, { type: 'deferUpdate' });
  assert.equal(wrong.status, 400);
  // The component's message is not the interaction's own: it is not deleted through it.
  assert.equal((await w.later(cev, 'DELETE', '/messages/@original')).status, 404);
});

// A multipart request to an interaction's own route (no Authorization: the token is in the path).
async function multipart(method, p, payload, files) {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(payload));
  files.forEach((f, i) => form.append(`files[${i}]`, new Blob([f.data], { type: 'application/octet-stream' }), f.name));
  const res = await fetch(srv.url + p, { method, body: form });
  const text = await res.text();
  let body = null;
  try { body = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, body, text };
}

test('files through the token: a follow-up and the edited answer carry them; an ephemeral one cannot; a wrong token uploads nothing', async () => {
  const w = await world();
  const ev = await w.command();
  assert.equal((await w.respond(ev, { type: 'defer' })).status, 200);
  const report = { name: 'relatorio.txt', data: Buffer.from('tudo certo\n'.repeat(100)) };
  const base = `/api/interactions/${ev.id}/${ev.token}`;
  const f = await multipart('POST', `${base}/followups`, { content: 'o relatório' }, [report]);
  assert.equal(f.status, 200, f.text);
  assert.deepEqual(f.body.message.attachments.map((a) => [a.filename, a.size]), [['relatorio.txt', 1100]]);
  const got = await fetch(f.body.message.attachments[0].url, { headers: { authorization: `Bearer ${w.member.token}` } });
  assert.equal(got.status, 200);
  assert.equal((await got.text()).length, 1100);

  const e = await multipart('PATCH', `${base}/messages/@original`, { content: 'pronto, com gráfico', embeds: [{ image: { url: 'attachment://g.txt' } }] }, [{ name: 'g.txt', data: Buffer.from('g') }]);
  assert.equal(e.status, 200, e.text);
  assert.equal(e.body.message.attachments[0].filename, 'g.txt');
  assert.equal(e.body.message.embeds[0].image.url, e.body.message.attachments[0].url);
  assert.equal(e.body.message.flags, 0);

  const secret = await multipart('POST', `${base}/followups`, { content: 'só para você', ephemeral: true }, [report]);
  assert.equal(secret.status, 400);
  assert.equal(secret.body.error, 'files: uma resposta efêmera não leva arquivos');

  // Another interaction's token: refused; a file larger than a body without a credential is
  // refused before it is read.
  const other = await w.command();
  const wrong = await multipart('POST', `/api/interactions/${ev.id}/${other.token}/followups`, { content: 'x' }, [report]);
  assert.equal(wrong.status, 403);
  const big = await multipart('POST', `/api/interactions/${ev.id}/${other.token}/followups`, { content: 'x' }, [{ name: 'big.bin', data: Buffer.alloc(2 * 1024 * 1024, 7) }]);
  assert.equal(big.status, 413, big.text);
});

test("the token's routes count the bot's own limits: edits as its edits, follow-ups as its sends", async () => {
  const w = await world();
  const ev = await w.command();
  const first = await w.respond(ev, { type: 'message', data: { content: 'primeira' } });
  assert.equal(first.status, 200, first.text);
  // The bot's edit window (10 per 10 s) is the same whether it edits by its token or this one.
  const statuses = [];
  for (let i = 0; i < 11; i++) statuses.push((await w.later(ev, 'PATCH', '/messages/@original', { content: `versão ${i}` })).status);
  assert.deepEqual(statuses, [...Array(10).fill(200), 429]);
  const byBot = await api(srv.url, 'PATCH', `/api/bot/servers/${w.sid}/channels/${w.cid}/messages/${first.body.message.id}`, { token: w.info.botToken, body: { content: 'pelo bot' } });
  assert.equal(byBot.status, 429, 'one window for the bot');
  // Follow-ups share the bot's sends' window: with 6 sends of its own, the fifth follow-up is refused.
  const sends = [];
  for (let i = 0; i < 6; i++) sends.push((await api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${w.cid}/messages`, { token: w.info.botToken, body: { content: `envio ${i}` } })).status);
  assert.deepEqual(sends, Array(6).fill(200));
  const follow = [];
  for (let i = 0; i < 5; i++) follow.push((await w.later(ev, 'POST', '/followups', { content: `mais ${i}` })).status);
  assert.deepEqual(follow, [200, 200, 200, 200, 429]);
  // A refused edit changed nothing and published nothing.
  assert.equal((await w.history()).find((m) => m.content.startsWith('versão')).content, 'versão 9');
});
