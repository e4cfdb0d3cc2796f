// Who calls is decided before the writer lane: a caller refused there costs the writer nothing,
// and one admitted there is refused on the writer when its token ended in a commit before it.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, register, serverWithMembers, appWithBot, install, metric, NODES } = require('./helpers');

const REFUSED_EACH = 10;

test('refused before the writer lane: no credential, an unknown token, the wrong kind of caller, a cookie from elsewhere', async () => {
  const srv = await startServer({ args: ['--metrics-listen', '127.0.0.1:0'], single: true }); // one process's figures
  try {
    const w = await serverWithMembers(srv.url);
    const cid = w.server.channels[0].id;
    const info = await appWithBot(srv.url, w.owner, { intents: [] });
    await install(srv.url, w.owner, info, w.sid, { permissions: 256 | 512 });
    const botRoute = `/api/bot/servers/${w.sid}/channels/${cid}/messages`;
    const peopleRoute = `/api/servers/${w.sid}/channels/${cid}/messages`;
    // Each kind once through the writer's own path first, so the figures below count only the
    // refusals (a token is in memory once used).
    assert.equal((await api(srv.url, 'POST', botRoute, { token: info.botToken, body: { content: 'oi' } })).status, 200);
    assert.equal((await api(srv.url, 'POST', peopleRoute, { token: w.owner.token, body: { content: 'oi' } })).status, 200);
    const before = await metric(srv, 'praca_writer_jobs_total');
    const cases = [
      [botRoute, {}, 401, 'Não autenticado: envie o token em Authorization: Bearer'],
      [botRoute, { token: 'x'.repeat(300) }, 401, 'Token inválido'],
      [botRoute, { token: 'nunca-existiu' }, 401, 'Token inválido'],
      [botRoute, { token: w.owner.token }, 403, 'Rota exclusiva de bots: use o token do bot'],
      [peopleRoute, { headers: { cookie: `session=${w.owner.token}`, origin: 'https://outro.example' } }, 403,
        'Origem não permitida: requisições com cookie precisam de Origin do site'],
    ];
    for (const [route, how, status, error] of cases) {
      for (let i = 0; i < REFUSED_EACH; i++) {
        const r = await api(srv.url, 'POST', route, { ...how, body: { content: `recusada ${i}` } });
        assert.equal(r.status, status, r.text);
        assert.equal(r.body.error, error);
      }
    }
    const ran = (await metric(srv, 'praca_writer_jobs_total')) - before;
    // Each refusal on the writer would be a job: 50 of them. A few may be the server's own.
    assert.ok(ran < REFUSED_EACH, `the writer ran ${ran} jobs for ${cases.length * REFUSED_EACH} refusals`);
  } finally {
    const r = await srv.stop();
    assert.equal(r.code, 0, srv.stderr);
  }
});

test('a caller admitted ahead is still checked on the writer: a token rotated or a session ended while sends go on', async () => {
  const srv = await startServer();
  try {
    const w = await serverWithMembers(srv.url, 1);
    const cid = w.server.channels[0].id;
    const info = await appWithBot(srv.url, w.owner, { intents: [] });
    await install(srv.url, w.owner, info, w.sid, { permissions: 256 | 512 });
    const botRoute = `/api/bot/servers/${w.sid}/channels/${cid}/messages`;
    const send = (token, route = botRoute) => api(srv.url, 'POST', route, { token, body: { content: 'em andamento' } });
    assert.equal((await send(info.botToken)).status, 200); // the token is in memory now
    // Sends keep going while the token is rotated: each is either before it (200) or after (401).
    let going = true;
    const stream = (async () => {
      const seen = [];
      while (going) seen.push((await send(info.botToken)).status);
      return seen;
    })();
    const rotated = await api(srv.url, 'POST', `/api/applications/${info.app.id}/bot/token/rotate`, { token: w.owner.token });
    assert.equal(rotated.status, 200);
    const after = await Promise.all(Array.from({ length: 10 }, () => send(info.botToken)));
    going = false;
    const seen = await stream;
    assert.deepEqual(after.map((r) => r.status), Array(10).fill(401), 'every send begun after the rotation');
    assert.deepEqual([...new Set(seen)].filter((s) => s !== 200 && s !== 401), []);
    // On one node a refusal is final at once; with several, a node that has not yet read the
    // rotation still admits until the rotation's answer, which waits for every node.
    if (NODES < 2) assert.deepEqual(seen.slice(seen.indexOf(401)).filter((s) => s !== 401), [], 'never 200 once refused');
    assert.equal((await send(rotated.body.token)).status, 200, 'the new token at once');

    const m = w.members[0];
    const peopleRoute = `/api/servers/${w.sid}/channels/${cid}/messages`;
    assert.equal((await send(m.token, peopleRoute)).status, 200);
    assert.equal((await api(srv.url, 'POST', '/api/auth/logout', { token: m.token })).status, 200);
    const ended = await send(m.token, peopleRoute);
    assert.equal(ended.status, 401, ended.text);
  } finally {
    const r = await srv.stop();
    assert.equal(r.code, 0, srv.stderr);
  }
});
