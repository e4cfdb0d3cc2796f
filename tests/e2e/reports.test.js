// Reports: a message (in a server or a DM) or a member reported with a reason; a server's reports
// reach its people with GERENCIAR_MENSAGENS, with the message as it was even once deleted, and
// every step is in the audit log; a DM's reach the operators through `praca admin reports`.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { api, register, serverWithMembers, startServer, BIN, sharedServer } = require('./helpers');

const srv = sharedServer({ args: ['--rate-limit-scale', '100'] });
const call = (who, method, path, body) => api(srv.url, method, path, { token: who.token, body });
const praca = (...args) => spawnSync(BIN, [...args, ...srv.storeArgs], { encoding: 'utf8', env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' } });

test('a reported message reaches the moderators, kept as it was after its deletion; settling it is audited', async () => {
  const { owner: olga, sid, server, members: [ana, bia] } = await serverWithMembers(srv.url, 2);
  const cid = server.channels[0].id;
  const said = await call(ana, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { content: 'algo ofensivo' });
  const url = `/api/servers/${sid}/channels/${cid}/messages/${said.body.message.id}/report`;
  const r = await call(bia, 'POST', url, { reason: 'harassment', details: '  Ela me persegue em todo canal.  ' });
  assert.equal(r.status, 201, r.text);
  const report = r.body.report;
  assert.equal(report.serverId, sid);
  assert.equal(report.channelId, cid);
  assert.equal(report.messageId, said.body.message.id);
  assert.deepEqual([report.targetId, report.targetUsername, report.reporterId], [ana.user.id, ana.user.username, bia.user.id]);
  assert.deepEqual([report.reason, report.details, report.status, report.settledBy], ['harassment', 'Ela me persegue em todo canal.', 'open', null]);
  assert.deepEqual([report.content.id, report.content.content, report.content.fromId], [said.body.message.id, 'algo ofensivo', ana.user.id]);
  const again = await call(bia, 'POST', url, { reason: 'spam' });
  assert.deepEqual([again.status, again.body.report.id], [200, report.id], 'one open report of it per person');

  // The author deletes it; the copy stays. Only moderators read the queue.
  assert.equal((await call(ana, 'DELETE', `/api/servers/${sid}/channels/${cid}/messages/${said.body.message.id}`)).status, 200);
  const queue = await call(olga, 'GET', `/api/servers/${sid}/reports`);
  assert.equal(queue.status, 200, queue.text);
  assert.deepEqual(queue.body.reports.map((x) => [x.id, x.content.content]), [[report.id, 'algo ofensivo']]);
  assert.equal((await call(bia, 'GET', `/api/servers/${sid}/reports`)).status, 403);
  assert.equal((await call(olga, 'GET', `/api/servers/${sid}/reports?status=talvez`)).status, 400);

  // Settled with a note, then the queue of open ones is empty; "all" still has it.
  const done = await call(olga, 'PATCH', `/api/servers/${sid}/reports/${report.id}`, { status: 'resolved', note: 'Conversei com ela.' });
  assert.equal(done.status, 200, done.text);
  assert.deepEqual([done.body.report.status, done.body.report.settledBy, done.body.report.note], ['resolved', olga.user.id, 'Conversei com ela.']);
  assert.deepEqual((await call(olga, 'GET', `/api/servers/${sid}/reports`)).body.reports, []);
  assert.equal((await call(olga, 'GET', `/api/servers/${sid}/reports?status=all`)).body.reports.length, 1);
  assert.equal((await call(olga, 'PATCH', `/api/servers/${sid}/reports/${report.id}`, { status: 'fechado' })).status, 400);
  assert.equal((await call(olga, 'PATCH', `/api/servers/${sid}/reports/00000000-0000-7000-8000-000000000000`, { status: 'dismissed' })).status, 404);
  const log = (await call(olga, 'GET', `/api/servers/${sid}/audit-log`)).body.entries;
  const steps = log.filter((e) => e.action.startsWith('report.'));
  assert.deepEqual(steps.map((e) => [e.action, e.userId || e.actorId]).map((x) => x[0]), ['report.resolve', 'report.create']);
});

test('a member is reported; what cannot be a report is refused', async () => {
  const { owner: olga, sid, server, members: [ana, bia] } = await serverWithMembers(srv.url, 2);
  const r = await call(bia, 'POST', `/api/servers/${sid}/members/${ana.user.id}/report`, { reason: 'impersonation', details: 'Finge ser a dona.' });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual([r.body.report.messageId, r.body.report.content, r.body.report.targetId], [null, null, ana.user.id]);
  const cid = server.channels[0].id;
  const own = await call(bia, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { content: 'minha' });
  const refused = async (who, path, body, status, error) => {
    const x = await call(who, 'POST', path, body);
    assert.deepEqual([x.status, x.body && x.body.error], [status, error], path + ' ' + JSON.stringify(body));
  };
  const mine = `/api/servers/${sid}/channels/${cid}/messages/${own.body.message.id}/report`;
  await refused(bia, mine, { reason: 'spam' }, 400, 'messageId: não é possível denunciar a si mesmo');
  await refused(bia, `/api/servers/${sid}/members/${bia.user.id}/report`, { reason: 'spam' }, 400, 'userId: não é possível denunciar a si mesmo');
  await refused(ana, mine, { reason: 'chato' }, 400, 'reason: deve ser spam, harassment, hate, violence, sexual, self_harm, impersonation ou other');
  await refused(ana, mine, {}, 400, 'reason: obrigatório');
  await refused(ana, mine, { reason: 'spam', details: 'x'.repeat(1001) }, 400, 'details: deve ter no máximo 1000 caracteres');
  const stranger = await register(srv.url);
  await refused(stranger, mine, { reason: 'spam' }, 404, 'Servidor não encontrado');
  await refused(ana, `/api/servers/${sid}/members/${stranger.user.id}/report`, { reason: 'spam' }, 404, 'Membro não encontrado');
  assert.equal((await call(olga, 'GET', `/api/servers/${sid}/reports`)).body.reports.length, 1, 'nothing filed by the refusals');
});

test('a DM\'s report reaches the operators, who list and settle it with praca admin reports', async () => {
  const { members: [ana, bia] } = await serverWithMembers(srv.url, 2);
  const dm = (await call(ana, 'POST', '/api/users/@me/dms', { userId: bia.user.id })).body.channel;
  const sent = await call(bia, 'POST', `/api/dms/${dm.id}/messages`, { content: 'mensagem estranha no privado' });
  const r = await call(ana, 'POST', `/api/dms/${dm.id}/messages/${sent.body.message.id}/report`, { reason: 'spam' });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.report.serverId, null);
  const stranger = await register(srv.url);
  assert.equal((await call(stranger, 'POST', `/api/dms/${dm.id}/messages/${sent.body.message.id}/report`, { reason: 'spam' })).status, 404);
  let out = praca('admin', 'reports');
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, new RegExp(`^${r.body.report.id} .* open\\n  reported: .*@${bia.user.username}.* reason: spam\\n  message .*: mensagem estranha no privado`, 'm'));
  out = praca('admin', 'reports', 'resolve', r.body.report.id, '--note', 'conta suspensa');
  assert.equal(out.status, 0, out.stderr);
  assert.doesNotMatch(praca('admin', 'reports').stdout, new RegExp(r.body.report.id));
  assert.match(praca('admin', 'reports', '--all').stdout, /resolved[\s\S]*note: conta suspensa/);
  assert.equal(praca('admin', 'reports', 'resolve', '00000000-0000-7000-8000-000000000000').status, 1);
  assert.equal(praca('admin', 'reports', 'encerrar').status, 2);
});

test('a person files at most 20 reports an hour', async () => {
  const capped = await startServer();
  try {
    const { sid, members } = await serverWithMembers(capped.url, 21);
    const [who, ...others] = members;
    const statuses = [];
    for (const o of others)
      statuses.push((await api(capped.url, 'POST', `/api/servers/${sid}/members/${o.user.id}/report`, { token: who.token, body: { reason: 'spam' } })).status);
    assert.deepEqual(statuses, [...Array(20).fill(201)]);
    const owner = (await api(capped.url, 'GET', `/api/servers/${sid}`, { token: who.token })).body.server.ownerId;
    const last = await api(capped.url, 'POST', `/api/servers/${sid}/members/${owner}/report`, { token: who.token, body: { reason: 'spam' } });
    assert.equal(last.status, 429);
  } finally {
    await capped.stop();
  }
});
