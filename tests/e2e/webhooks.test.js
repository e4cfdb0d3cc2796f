// Incoming webhooks: made per channel by whoever manages them, posted to through a secret URL
// (Praça's body, Slack's or GitHub's), shown as the webhook's and never as a member, limited.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, appWithBot, install, serverWithMembers, gatewayConnect, nextEvent: next, sharedServer } = require('./helpers');
const { P } = require('./permissions');

const sockets = [];
const srv = sharedServer({ args: ['--test-clock'] }, sockets);

async function world() {
  const w = await serverWithMembers(srv.url, 1);
  const cid = w.server.channels[0].id;
  const create = (body, who = w.owner, channel = cid) => api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${channel}/webhooks`, { token: who.token, body });
  const post = async (url, body, { query = '', headers = {} } = {}) => {
    const res = await fetch(url + query, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await res.text();
    let parsed = null;
    try { parsed = JSON.parse(text); } catch { /* 204 */ }
    return { status: res.status, body: parsed, text };
  };
  const history = async () => (await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: w.owner.token })).body.messages;
  return { ...w, cid, create, post, history };
}

test('a webhook is made, posted to (wait or not), shown as the webhook\'s, and managed: listed, renamed, moved, rotated, deleted', async () => {
  const w = await world();
  const made = await w.create({ name: 'CI', avatarUrl: 'https://example.com/ci.png' });
  assert.equal(made.status, 201, made.text);
  const { webhook, token, url } = made.body;
  assert.deepEqual(Object.keys(webhook), ['id', 'serverId', 'channelId', 'name', 'avatarUrl', 'creatorId', 'applicationId', 'createdAt']);
  assert.equal(url, `${srv.url}/api/webhooks/${webhook.id}/${token}`);
  assert.equal(webhook.creatorId, w.owner.user.id);

  const person = await gatewayConnect(srv.url, { auth: { token: w.members[0].token } }, sockets);
  const seen = next(person, 'MESSAGE_CREATE');
  const quiet = await w.post(url, { content: 'build verde ✅' });
  assert.equal(quiet.status, 204, quiet.text);
  const ev = await seen;
  assert.deepEqual([ev.content, ev.fromId, ev.webhook], ['build verde ✅', webhook.id, { id: webhook.id, name: 'CI', avatarUrl: 'https://example.com/ci.png' }]);
  const waited = await w.post(url, { content: 'deploy', username: 'Deploy bot', avatarUrl: 'https://example.com/d.png', embeds: [{ title: 'v1.2', color: 0x2da44e }], components: [{ type: 1, components: [{ type: 2, style: 5, label: 'Ver', url: 'https://example.com' }] }] }, { query: '?wait=true' });
  assert.equal(waited.status, 200, waited.text);
  assert.deepEqual(waited.body.message.webhook, { id: webhook.id, name: 'Deploy bot', avatarUrl: 'https://example.com/d.png' });
  assert.equal((await w.history()).at(-1).webhook.name, 'Deploy bot', 'kept with the message');

  // Never a member's name; no interactive components; a wrong token or webhook.
  const named = await w.post(url, { content: 'oi', username: w.members[0].user.username.toUpperCase() });
  assert.equal(named.status, 400);
  assert.equal(named.body.error, 'username: é o nome de um membro deste servidor');
  const button = await w.post(url, { content: 'x', components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Clique', customId: 'c' }] }] });
  assert.equal(button.body.error, 'components: webhooks não levam componentes interativos (só botões de link)');
  assert.equal((await w.post(url.replace(token, 'x'.repeat(43)), { content: 'x' })).status, 401);
  assert.equal((await w.post(url.replace(webhook.id, '0190a000-0000-7000-8000-000000000000'), { content: 'x' })).status, 404);
  assert.equal((await w.post(url, { content: '' })).status, 400, 'something to show');

  // Managed.
  const list = await api(srv.url, 'GET', `/api/servers/${w.sid}/webhooks`, { token: w.owner.token });
  assert.deepEqual(list.body.webhooks.map((h) => h.name), ['CI']);
  const other = (await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'avisos' } })).body.channel.id;
  const moved = await api(srv.url, 'PATCH', `/api/servers/${w.sid}/webhooks/${webhook.id}`, { token: w.owner.token, body: { name: 'CI novo', channelId: other, avatarUrl: null } });
  assert.equal(moved.status, 200, moved.text);
  assert.deepEqual([moved.body.webhook.name, moved.body.webhook.channelId, moved.body.webhook.avatarUrl], ['CI novo', other, null]);
  const rotated = await api(srv.url, 'POST', `/api/servers/${w.sid}/webhooks/${webhook.id}/token`, { token: w.owner.token });
  assert.equal(rotated.status, 200);
  assert.equal((await w.post(url, { content: 'velho' })).status, 401, 'the old URL stops');
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 2100 } }); // past the 5 posts per 2 s
  assert.equal((await w.post(rotated.body.url, { content: 'no canal novo' })).status, 204);
  const fetched = await fetch(rotated.body.url);
  assert.equal((await fetched.json()).webhook.channelId, other);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${w.sid}/webhooks/${webhook.id}`, { token: w.owner.token })).status, 200);
  assert.equal((await w.post(rotated.body.url, { content: 'x' })).status, 404);
  assert.equal((await w.history()).filter((m) => m.webhook).length, 2, 'its messages stay');
});

test('who manages webhooks: GERENCIAR_WEBHOOKS in the channel, for people and bots; 15 a channel; names checked', async () => {
  const w = await world();
  const member = w.members[0];
  const refused = await w.create({ name: 'x' }, member);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error, 'Sem permissão: é preciso GERENCIAR_WEBHOOKS');
  assert.equal((await api(srv.url, 'GET', `/api/servers/${w.sid}/webhooks`, { token: member.token })).status, 403);
  const role = (await api(srv.url, 'POST', `/api/servers/${w.sid}/roles`, { token: w.owner.token, body: { name: 'Integrações', permissions: P.GERENCIAR_WEBHOOKS } })).body.role;
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/members/${member.user.id}/roles/${role.id}`, { token: w.owner.token });
  assert.equal((await w.create({ name: 'do membro' }, member)).status, 201);

  const info = await appWithBot(srv.url, w.owner, {});
  await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS | P.GERENCIAR_WEBHOOKS });
  const byBot = await w.create({ name: 'do bot' }, { token: info.botToken });
  assert.equal(byBot.status, 201, byBot.text);
  assert.equal(byBot.body.webhook.applicationId, info.app.id);

  for (let i = 2; i < 15; i++) assert.equal((await w.create({ name: `h${i}` })).status, 201);
  const full = await w.create({ name: 'demais' });
  assert.equal(full.status, 400);
  assert.equal(full.body.error, 'channelId: no máximo 15 webhooks por canal');
  assert.equal((await w.create({ name: ' espaço' })).body.error, 'name: use de 1 a 80 caracteres, sem espaços nas pontas');
  assert.equal((await w.create({ name: 'a', avatarUrl: 'ftp://x' })).status, 400);
  const voice = (await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'voz', type: 'voice' } })).body.channel.id;
  assert.equal((await w.create({ name: 'a' }, w.owner, voice)).body.error, 'channelId: webhooks postam só em canais de texto');
});

test('Slack and GitHub payloads become embeds; unknown GitHub events are accepted and ignored', async () => {
  const w = await world();
  const { url } = (await w.create({ name: 'Integrações' })).body;
  const slack = await w.post(url, {
    text: 'Deploy *concluído* em <https://ci.example/1|produção> ~ontem~',
    blocks: [{ type: 'header', text: { type: 'plain_text', text: 'Relatório' } },
             { type: 'section', text: { type: 'mrkdwn', text: 'Tudo *ok*' }, fields: [{ type: 'mrkdwn', text: '*Tempo:* 3 min' }] },
             { type: 'context', elements: [{ type: 'mrkdwn', text: 'por ci-bot' }] },
             { type: 'divider' },
             { type: 'section', text: { type: 'mrkdwn', text: 'Segunda parte' } }],
  }, { query: '?format=slack&wait=true' });
  assert.equal(slack.status, 200, slack.text);
  const m = slack.body.message;
  assert.equal(m.content, 'Deploy **concluído** em [produção](https://ci.example/1) ~~ontem~~');
  assert.deepEqual(m.embeds.map((e) => [e.title, e.description, e.footer && e.footer.text]), [
    ['Relatório', 'Tudo **ok**\n**Tempo:** 3 min', 'por ci-bot'], [undefined, 'Segunda parte', undefined]]);

  const push = await w.post(url, {
    ref: 'refs/heads/main', compare: 'https://github.com/ana/praca/compare/a...b',
    repository: { full_name: 'ana/praca' }, sender: { login: 'ana', avatar_url: 'https://avatars.example/ana.png', html_url: 'https://github.com/ana' },
    commits: [{ id: '0123456789abcdef', message: 'Conserta o teste\n\ndetalhes', author: { name: 'Ana' } }, { id: 'fedcba9876543210', message: 'Docs', author: { name: 'Bia' } }],
  }, { query: '?format=github&wait=true', headers: { 'x-github-event': 'push' } });
  assert.equal(push.status, 200, push.text);
  const e = push.body.message.embeds[0];
  assert.equal(e.title, '[ana/praca:main] 2 novos commits');
  assert.equal(e.url, 'https://github.com/ana/praca/compare/a...b');
  assert.equal(e.description, '`0123456` Conserta o teste — Ana\n`fedcba9` Docs — Bia\n');
  assert.deepEqual(e.author, { name: 'ana', iconUrl: 'https://avatars.example/ana.png', url: 'https://github.com/ana' });
  assert.equal(push.body.message.webhook.name, 'GitHub');

  const pr = await w.post(url, { action: 'closed', repository: { full_name: 'ana/praca' }, sender: { login: 'bia' },
    pull_request: { number: 7, title: 'Webhooks', html_url: 'https://github.com/ana/praca/pull/7', merged: true } }, { query: '?format=github&wait=true', headers: { 'x-github-event': 'pull_request' } });
  assert.equal(pr.body.message.embeds[0].title, '[ana/praca] Pull request integrado: #7 Webhooks');
  const star = await w.post(url, { action: 'created', repository: { full_name: 'ana/praca' } }, { query: '?format=github', headers: { 'x-github-event': 'star' } });
  assert.equal(star.status, 204, 'accepted, nothing shown');
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 2100 } }); // past the 5 posts per 2 s
  const noEvent = await w.post(url, { repository: { full_name: 'ana/praca' } }, { query: '?format=github' });
  assert.equal(noEvent.body.error, 'X-GitHub-Event: obrigatório com format=github');
  assert.equal((await w.post(url, { a: 1 }, { query: '?format=xml' })).body.error, 'format: deve ser slack ou github');
  // A large GitHub payload (past the 64 KB a request without credential gets) is read: the URL is the credential.
  const big = await w.post(url, { ref: 'refs/heads/main', repository: { full_name: 'ana/praca' }, sender: { login: 'ana' },
    commits: Array.from({ length: 300 }, (_, i) => ({ id: `${i}`.padStart(40, '0'), message: 'x'.repeat(400), author: { name: 'Ana' } })) },
  { query: '?format=github&wait=true', headers: { 'x-github-event': 'push' } });
  assert.equal(big.status, 200, big.text);
  assert.match(big.body.message.embeds[0].description, /… e mais 295$/);
});

test('limits: 5 posts per 2 s per webhook (429 with retryAfterMs, no headers)', async () => {
  const w = await world();
  const { url } = (await w.create({ name: 'Rápido' })).body;
  const results = [];
  for (let i = 0; i < 6; i++) results.push(await w.post(url, { content: `n${i}` }));
  assert.deepEqual(results.map((r) => r.status), [204, 204, 204, 204, 204, 429]);
  assert.ok(results[5].body.retryAfterMs > 0);
});
