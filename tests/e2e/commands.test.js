// Slash commands: a bot replaces its global or per-server set; members see what they can invoke.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, register, appWithBot, install, serverWithMembers, sharedServer } = require('./helpers');

const { P } = require('./permissions');
const srv = sharedServer();

const put = (token, body) => api(srv.url, 'PUT', '/api/bot/commands', { token, body });
const clima = {
  name: 'clima', description: 'Previsão do tempo',
  options: [
    { name: 'cidade', description: 'Qual cidade', type: 'string', required: true, choices: [{ name: 'Rio', value: 'rio' }] },
    { name: 'dias', description: 'Quantos dias', type: 'integer' },
  ],
};

async function installedBot(intents = ['interactions.receive']) {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { intents });
  const { owner, sid, members } = await serverWithMembers(srv.url, 1);
  const r = await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  assert.equal(r.complete.status, 200, r.complete.text);
  return { dev, info, owner, sid, member: members[0] };
}

test('PUT /api/bot/commands replaces the global set and answers the clean commands', async () => {
  const { dev, info } = await installedBot();
  const r = await put(info.botToken, { commands: [{ ...clima, extra: true }, { name: 'oi', description: 'Olá' }] });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.commands, [
    { type: 'chat', name: 'clima', description: 'Previsão do tempo', serverId: null, options: [
      { name: 'cidade', description: 'Qual cidade', type: 'string', required: true, choices: [{ name: 'Rio', value: 'rio' }] },
      { name: 'dias', description: 'Quantos dias', type: 'integer', required: false },
    ], defaultMemberPermissions: null, nameLocalizations: null, descriptionLocalizations: null },
    { type: 'chat', name: 'oi', description: 'Olá', options: [], serverId: null, defaultMemberPermissions: null, nameLocalizations: null, descriptionLocalizations: null },
  ]);
  const owned = await api(srv.url, 'GET', `/api/applications/${info.app.id}/commands`, { token: dev.token });
  assert.deepEqual(owned.body.commands.map((c) => c.name), ['clima', 'oi']);
  assert.deepEqual(owned.body.commands[0], r.body.commands[0]);

  const again = await put(info.botToken, { commands: [{ name: 'tchau', description: 'Até logo' }] });
  assert.equal(again.status, 200);
  const after = await api(srv.url, 'GET', `/api/applications/${info.app.id}/commands`, { token: dev.token });
  assert.deepEqual(after.body.commands.map((c) => c.name), ['tchau'], 'the old set is gone');
  const empty = await put(info.botToken, { commands: [] });
  assert.deepEqual(empty.body.commands, []);
  assert.deepEqual((await api(srv.url, 'GET', `/api/applications/${info.app.id}/commands`, { token: dev.token })).body.commands, []);
});

test('per-server commands: only where the bot is installed; the global set is untouched', async () => {
  const { dev, info, sid } = await installedBot();
  await put(info.botToken, { commands: [{ name: 'global', description: 'g' }] });
  const r = await put(info.botToken, { serverId: sid, commands: [{ name: 'local', description: 'l' }] });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.commands[0].serverId, sid);
  const owned = await api(srv.url, 'GET', `/api/applications/${info.app.id}/commands`, { token: dev.token });
  assert.deepEqual(owned.body.commands.map((c) => [c.name, c.serverId]), [['global', null], ['local', sid]]);

  const other = await serverWithMembers(srv.url, 0);
  const notThere = await put(info.botToken, { serverId: other.sid, commands: [] });
  assert.equal(notThere.status, 404);
  assert.equal(notThere.body.error, 'Servidor não encontrado');
  const bad = await put(info.botToken, { serverId: 'x', commands: [] });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error, /^serverId: /);
});

test('bad commands: 400 with the field path; people cannot use the route', async () => {
  const { info, owner } = await installedBot();
  const cases = [
    [{}, 'commands: obrigatório'],
    [{ commands: {} }, 'commands: deve ser uma lista'],
    [{ commands: [{ name: 'Clima', description: 'd' }] }, /^commands\.0\.name: use de 1 a 32 caracteres/],
    [{ commands: [{ name: 'a'.repeat(33), description: 'd' }] }, /^commands\.0\.name: /],
    [{ commands: [{ name: 'a', description: 'd' }, { name: 'a', description: 'd' }] }, 'commands.1.name: nome repetido: a'],
    [{ commands: [{ name: 'a', description: 'x'.repeat(101) }] }, 'commands.0.description: deve ter entre 1 e 100 caracteres'],
    [{ commands: [{ name: 'a' }] }, 'commands.0.description: obrigatório'],
    [{ commands: [{ name: 'a', description: 'd', options: [{ name: 'o', description: 'd', type: 'data' }] }] }, /^commands\.0\.options\.0\.type: /],
    [{ commands: [{ name: 'a', description: 'd', options: [{ name: 'o', description: 'd', type: 'user' }, { name: 'p', description: 'd', type: 'user', required: true }] }] },
      'commands.0.options.1.required: as opções obrigatórias vêm antes das opcionais'],
    [{ commands: [{ name: 'a', description: 'd', options: [{ name: 'o', description: 'd', type: 'integer', choices: [{ name: 'um', value: 'um' }] }] }] },
      'commands.0.options.0.choices.0.value: deve ser um número inteiro'],
    [{ commands: Array.from({ length: 101 }, (_, i) => ({ name: `c${i}`, description: 'd' })) }, 'commands.100: no máximo 100 comandos do tipo chat'],
    [{ commands: Array.from({ length: 131 }, (_, i) => ({ name: `c${i}`, description: 'd' })) }, 'commands: no máximo 130 comandos'],
    [{ commands: [{ name: 'a', description: 'd', options: Array.from({ length: 26 }, (_, i) => ({ name: `o${i}`, description: 'd', type: 'string' })) }] },
      'commands.0.options: no máximo 25 opções'],
    // One command's text in all: 25 options of 25 choices of 100 characters is far past 4,000.
    [{ commands: [{ name: 'a', description: 'd', options: Array.from({ length: 25 }, (_, i) => ({ name: `o${i}`, description: 'd', type: 'string',
      choices: Array.from({ length: 25 }, (_, j) => ({ name: `c${j}`, value: 'v'.repeat(100) })) })) }] },
    /^commands\.0: nomes, descrições e escolhas somam \d+ caracteres \(máximo 4000\)$/],
  ];
  for (const [body, error] of cases) {
    const r = await put(info.botToken, body);
    assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
    if (error instanceof RegExp) assert.match(r.body.error, error);
    else assert.equal(r.body.error, error);
  }
  // Each command under 4,000 characters, but 100 of them pass the set's 256 KiB.
  const heavy = (i) => ({ name: `c${i}`, description: 'd', options: Array.from({ length: 5 }, (_, k) => ({ name: `o${k}`, description: 'd', type: 'string',
    choices: Array.from({ length: 7 }, (_, j) => ({ name: `c${j}`, value: 'v'.repeat(100) })) })) });
  const tooBig = await put(info.botToken, { commands: Array.from({ length: 100 }, (_, i) => heavy(i)) });
  assert.equal(tooBig.status, 413);
  assert.match(tooBig.body.error, /^commands: o conjunto ocupa \d+ bytes \(máximo 262144\)$/);
  assert.equal((await put(info.botToken, { commands: Array.from({ length: 40 }, (_, i) => heavy(i)) })).status, 200, 'a large set that fits');
  const hundred = await put(info.botToken, { commands: Array.from({ length: 100 }, (_, i) => ({ name: `c${i}`, description: 'd' })) });
  assert.equal(hundred.status, 200);
  assert.equal(hundred.body.commands.length, 100);
  const person = await put(owner.token, { commands: [] });
  assert.equal(person.status, 403);
  const nobody = await put(undefined, { commands: [] });
  assert.equal(nobody.status, 401);
});

test('PUT /api/bot/commands: 20 per minute per bot', async () => {
  const { info } = await installedBot();
  const other = await installedBot();
  for (let i = 0; i < 20; i++) assert.equal((await put(info.botToken, { commands: [] })).status, 200, `call ${i + 1}`);
  const over = await put(info.botToken, { commands: [] });
  assert.equal(over.status, 429);
  assert.ok(over.body.retryAfterMs > 0 && over.body.retryAfterMs <= 60_000, String(over.body.retryAfterMs));
  assert.equal((await put(other.info.botToken, { commands: [] })).status, 200, 'another bot is not affected');
});

test('GET /api/servers/:sid/commands: installed applications with interactions.receive', async () => {
  const { dev, info, owner, sid, member } = await installedBot([]);
  const saved = await put(info.botToken, { commands: [clima, { name: 'oi', description: 'Olá global' }] });
  assert.equal(saved.status, 200, 'saved even with the intent off');
  assert.equal(saved.body.invocable, false);
  assert.match(saved.body.warning, /interactions\.receive está desligada/);
  await put(info.botToken, { serverId: sid, commands: [{ name: 'oi', description: 'Olá daqui' }] });
  const hidden = await api(srv.url, 'GET', `/api/servers/${sid}/commands`, { token: member.token });
  assert.equal(hidden.status, 200);
  assert.deepEqual(hidden.body.commands, [], 'without interactions.receive nothing shows');

  await api(srv.url, 'PUT', `/api/applications/${info.app.id}/intents`, { token: dev.token, body: { intents: ['interactions.receive'] } });
  const now = await put(info.botToken, { serverId: sid, commands: [{ name: 'oi', description: 'Olá daqui' }] });
  assert.equal(now.body.invocable, true);
  assert.equal('warning' in now.body, false, 'no warning once the intent is on');
  const shown = await api(srv.url, 'GET', `/api/servers/${sid}/commands`, { token: member.token });
  assert.deepEqual(shown.body.commands.map((c) => [c.applicationId, c.name, c.description]),
                   [[info.app.id, 'clima', 'Previsão do tempo'], [info.app.id, 'oi', 'Olá daqui']],
                   'the server command hides the global one of the same name');
  assert.deepEqual(Object.keys(shown.body.commands[0]), ['applicationId', 'type', 'name', 'description', 'options', 'defaultMemberPermissions', 'nameLocalizations', 'descriptionLocalizations', 'nameLocalized', 'descriptionLocalized']);
  assert.equal(shown.body.commands[0].options.length, 2);

  // Another server where it is installed sees the global set only.
  const second = await serverWithMembers(srv.url, 0);
  await install(srv.url, second.owner, info, second.sid);
  const there = await api(srv.url, 'GET', `/api/servers/${second.sid}/commands`, { token: second.owner.token });
  assert.deepEqual(there.body.commands.map((c) => c.description), ['Previsão do tempo', 'Olá global']);

  const outsider = await register(srv.url);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}/commands`, { token: outsider.token })).status, 404);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}/commands`, { token: info.botToken })).status, 200);

  await api(srv.url, 'DELETE', `/api/servers/${sid}/applications/${info.app.id}`, { token: owner.token });
  const gone = await api(srv.url, 'GET', `/api/servers/${sid}/commands`, { token: member.token });
  assert.deepEqual(gone.body.commands, [], 'an uninstalled application offers nothing');
});
