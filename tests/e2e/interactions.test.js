// Interactions in gateway mode: a person invokes a command, clicks a component or submits a
// form; the bot gets INTERACTION_CREATE and answers once with a message, an update or a form.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { startServer, api, appWithBot, install, serverWithMembers, gatewayConnect, BIN, nextEvent: next, quiet, sharedServer } = require('./helpers');

const { P } = require('./permissions');
const EVERYONE_DEFAULT = 256 | 512 | 2048 | 128 | 16384 | 32768 | 65536;
const sockets = [];
const srv = sharedServer({ args: ['--test-clock'] }, sockets);

const connect = (token, transports) => gatewayConnect(srv.url, { auth: { token }, ...(transports && { transports }) }, sockets);


const clima = {
  name: 'clima', description: 'Previsão do tempo',
  options: [
    { name: 'cidade', description: 'Qual', type: 'string', required: true, choices: [{ name: 'Rio', value: 'rio' }, { name: 'Recife', value: 'recife' }] },
    { name: 'dias', description: 'Quantos', type: 'integer' },
  ],
};

// A server with a member, an installed bot with commands, and both on the gateway.
async function world({ intents = ['interactions.receive'], transports } = {}) {
  const w = await serverWithMembers(srv.url, 1);
  const info = await appWithBot(srv.url, w.owner, { intents });
  await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  const put = await api(srv.url, 'PUT', '/api/bot/commands', { token: info.botToken, body: { commands: [clima, { name: 'form', description: 'Um formulário' }] } });
  assert.equal(put.status, 200, put.text);
  const cid = w.server.channels[0].id;
  const member = w.members[0];
  const bot = await connect(info.botToken, transports);
  const person = await connect(member.token, transports);
  const invoke = (body, token = member.token) => api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${cid}/interactions`, { token, body });
  const respond = (id, body, token = info.botToken) => api(srv.url, 'POST', `/api/bot/interactions/${id}/respond`, { token, body });
  const command = (name = 'clima', options = [{ name: 'cidade', value: 'rio' }]) => invoke({ type: 'command', applicationId: info.app.id, commandName: name, options });
  return { ...w, info, cid, member, bot, person, invoke, respond, command };
}

for (const transports of [undefined, ['websocket']]) {
  const mode = transports ? 'websocket' : 'default';
  test(`${mode}: a command reaches the bot; its message answer reaches the person, once`, async () => {
    const w = await world({ transports });
    const created = next(w.bot, 'INTERACTION_CREATE');
    const r = await w.command('clima', [{ name: 'cidade', value: 'recife' }, { name: 'dias', value: 3 }]);
    assert.equal(r.status, 202, r.text);
    const ev = await created;
    assert.equal(ev.id, r.body.interactionId);
    assert.deepEqual(Object.keys(ev), ['id', 'type', 'applicationId', 'serverId', 'channelId', 'user', 'commandName', 'commandType', 'targetId', 'target', 'options', 'messageId', 'customId', 'values', 'createdAt', 'token']);
    assert.match(ev.token, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual({ ...ev, createdAt: undefined, token: undefined }, {
      id: r.body.interactionId, type: 'command', applicationId: w.info.app.id, serverId: w.sid, channelId: w.cid,
      user: { id: w.member.user.id, username: w.member.user.username, displayName: w.member.user.displayName, locale: null },
      commandName: 'clima', commandType: 'chat', targetId: null, target: null,
      options: [{ name: 'cidade', type: 'string', value: 'recife' }, { name: 'dias', type: 'integer', value: 3 }],
      messageId: null, customId: null, values: null, createdAt: undefined, token: undefined,
    });
    assert.ok(Math.abs(Date.parse(ev.createdAt) - Date.now()) < 60_000 * 60);

    const delivered = next(w.person, 'MESSAGE_CREATE');
    const answer = await w.respond(ev.id, { type: 'message', data: { content: 'Sol em Recife' } });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.message.commandName, 'clima');
    assert.equal(answer.body.message.commandInvokerId, w.member.user.id);
    assert.equal(answer.body.message.applicationId, w.info.app.id);
    const seen = await delivered;
    assert.equal(seen.id, answer.body.message.id);
    const history = await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${w.cid}/messages`, { token: w.member.token });
    assert.equal(history.body.messages[0].content, 'Sol em Recife');

    const again = await w.respond(ev.id, { type: 'message', data: { content: 'de novo' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.error, 'Interação já respondida ou expirada');
  });
}

test('invoking: permissions, unknown commands, and options checked against the definition', async () => {
  const w = await world();
  const cases = [
    [{ type: 'nada' }, 400, 'type: deve ser command, component, modal_submit ou autocomplete'],
    [{ type: 'command', applicationId: w.info.app.id, commandName: 'nenhum' }, 404, 'Comando não encontrado'],
    [{ type: 'command', applicationId: w.info.app.id, commandName: 'clima' }, 400, 'options: falta a opção obrigatória cidade'],
    [{ type: 'command', applicationId: w.info.app.id, commandName: 'clima', options: [{ name: 'cidade', value: 'lisboa' }] }, 400, 'options.0.value: não é uma das escolhas da opção'],
    [{ type: 'command', applicationId: w.info.app.id, commandName: 'clima', options: [{ name: 'cidade', value: 'rio' }, { name: 'dias', value: 'três' }] }, 400, 'options.1.value: deve ser um número inteiro'],
    [{ type: 'command', applicationId: w.info.app.id, commandName: 'clima', options: [{ name: 'cidade', value: 'rio' }, { name: 'cidade', value: 'rio' }] }, 400, 'options.1.name: opção repetida: cidade'],
    [{ type: 'command', applicationId: w.info.app.id, commandName: 'clima', options: [{ name: 'cidade', value: 'rio' }, { name: 'x', value: 1 }] }, 400, 'options.1.name: opção desconhecida: x'],
    [{ type: 'command', applicationId: 'x', commandName: 'clima' }, 400, /^applicationId: /],
    [{ type: 'modal_submit', applicationId: w.info.app.id, customId: 'f', values: 'x' }, 400, /^values: /],
    [{ type: 'component', messageId: w.info.app.id, customId: 'x' }, 404, 'Mensagem não encontrada'],
  ];
  for (const [body, status, error] of cases) {
    const r = await w.invoke(body);
    assert.equal(r.status, status, JSON.stringify(body));
    if (error instanceof RegExp) assert.match(r.body.error, error);
    else assert.equal(r.body.error, error);
  }
  assert.equal((await w.invoke({ type: 'command', applicationId: w.info.app.id, commandName: 'form' }, w.info.botToken)).status, 403, 'bots do not invoke');

  // USAR_COMANDOS is needed.
  const everyone = await api(srv.url, 'PATCH', `/api/servers/${w.sid}/roles/${w.sid}`, { token: w.owner.token, body: { permissions: EVERYONE_DEFAULT & ~P.USAR_COMANDOS } });
  assert.equal(everyone.status, 200, everyone.text);
  const denied = await w.command();
  assert.equal(denied.status, 403);
  assert.equal(denied.body.error, 'Sem permissão: é preciso USAR_COMANDOS');
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}/roles/${w.sid}`, { token: w.owner.token, body: { permissions: EVERYONE_DEFAULT } });

  // Without interactions.receive the command is not offered and cannot be invoked.
  await api(srv.url, 'PUT', `/api/applications/${w.info.app.id}/intents`, { token: w.owner.token, body: { intents: [] } });
  const off = await w.command();
  assert.equal(off.status, 403);
  assert.match(off.body.error, /interactions\.receive/);
  await quiet();
  assert.deepEqual(w.bot.received.filter((e) => e.name === 'INTERACTION_CREATE'), []);

  // Uninstalled: nothing to invoke.
  await api(srv.url, 'PUT', `/api/applications/${w.info.app.id}/intents`, { token: w.owner.token, body: { intents: ['interactions.receive'] } });
  await api(srv.url, 'DELETE', `/api/servers/${w.sid}/applications/${w.info.app.id}`, { token: w.owner.token });
  assert.equal((await w.command()).status, 404);
});

test('invoking: only in text channels; a suspended application offers and takes nothing', async () => {
  const w = await world();
  const voice = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'Voz', type: 'voice' } });
  assert.equal(voice.status, 201, voice.text);
  const inVoice = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${voice.body.channel.id}/interactions`, { token: w.member.token, body: { type: 'command', applicationId: w.info.app.id, commandName: 'form' } });
  assert.equal(inVoice.status, 400);
  assert.equal(inVoice.body.error, 'channelId: interações só acontecem em canais de texto do servidor');

  assert.equal((await api(srv.url, 'GET', `/api/servers/${w.sid}/commands`, { token: w.member.token })).body.commands.length, 2);
  const cli = spawnSync(BIN, ['admin', 'suspend', w.info.app.id, '--reason', 'spam', ...srv.storeArgs],
                        { encoding: 'utf8', env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' } });
  assert.equal(cli.status, 0, cli.stderr);
  assert.deepEqual((await api(srv.url, 'GET', `/api/servers/${w.sid}/commands`, { token: w.member.token })).body.commands, []);
  const r = await w.command();
  assert.equal(r.status, 404);
  assert.equal(r.body.error, 'Aplicação não instalada neste servidor');
});

test('components: a click reaches the bot, update edits the message; a removed component is 409', async () => {
  const w = await world();
  const sent = await api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${w.cid}/messages`, { token: w.info.botToken, body: {
    content: 'Escolha',
    components: [
      { type: 1, components: [{ type: 2, style: 1, customId: 'sim', label: 'Sim' }] },
      { type: 1, components: [{ type: 3, customId: 'sabor', options: [{ label: 'Caju', value: 'caju' }, { label: 'Açaí', value: 'acai' }] }] },
    ],
  } });
  assert.equal(sent.status, 200, sent.text);
  const mid = sent.body.message.id;

  const created = next(w.bot, 'INTERACTION_CREATE');
  const click = await w.invoke({ type: 'component', messageId: mid, customId: 'sim', values: ['ignorado'] });
  assert.equal(click.status, 202, click.text);
  const ev = await created;
  assert.equal(ev.type, 'component');
  assert.equal(ev.messageId, mid);
  assert.equal(ev.customId, 'sim');
  assert.equal(ev.applicationId, w.info.app.id);
  assert.equal(ev.values, null, 'buttons carry no values');
  assert.equal(ev.commandName, null);

  const selectEv = next(w.bot, 'INTERACTION_CREATE');
  assert.equal((await w.invoke({ type: 'component', messageId: mid, customId: 'sabor', values: ['caju'] })).status, 202);
  assert.deepEqual((await selectEv).values, ['caju']);

  const bad = await w.respond(ev.id, { type: 'update', data: { content: 'x'.repeat(4001) } });
  assert.equal(bad.status, 400, 'a bad answer does not use the interaction up');
  const updated = next(w.person, 'MESSAGE_UPDATE');
  const up = await w.respond(ev.id, { type: 'update', data: { content: 'Confirmado', components: [] } });
  assert.equal(up.status, 200, up.text);
  assert.equal(up.body.message.content, 'Confirmado');
  assert.deepEqual((await updated).id, mid);

  const gone = await w.invoke({ type: 'component', messageId: mid, customId: 'sim' });
  assert.equal(gone.status, 409);
  assert.equal(gone.body.error, 'O componente não existe mais nesta mensagem');
  const human = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${w.cid}/messages`, { token: w.owner.token, body: { content: 'oi' } });
  const onHuman = await w.invoke({ type: 'component', messageId: human.body.message.id, customId: 'sim' });
  assert.equal(onHuman.status, 409, 'messages of people have no components');

  // update answers only component interactions.
  const cmd = next(w.bot, 'INTERACTION_CREATE');
  await w.command();
  const cev = await cmd;
  const wrong = await w.respond(cev.id, { type: 'update', data: { content: 'x' } });
  assert.equal(wrong.status, 400);
  assert.equal(wrong.body.error, 'type: update só responde a interações de componente');
});

test('forms: a modal answer reaches the person; the submission reaches the bot once', async () => {
  const w = await world();
  const cmd = next(w.bot, 'INTERACTION_CREATE');
  await w.invoke({ type: 'command', applicationId: w.info.app.id, commandName: 'form' });
  const ev = await cmd;

  const modal = {
    customId: 'cadastro', title: 'Cadastro',
    components: [{ type: 1, components: [{ type: 4, customId: 'nome', label: 'Seu nome', style: 1, required: true }] }],
  };
  const badModals = [
    [{ ...modal, title: '' }, /^data\.title: /],
    [{ ...modal, components: [] }, /^data\.components: /],
    [{ ...modal, components: [{ type: 1, components: [{ type: 2, customId: 'b', style: 1 }] }] }, /^data\.components\.0\.components\.0\.type: /],
  ];
  for (const [data, error] of badModals) {
    const r = await w.respond(ev.id, { type: 'modal', data });
    assert.equal(r.status, 400);
    assert.match(r.body.error, error);
  }
  const shown = next(w.person, 'INTERACTION_MODAL');
  const r = await w.respond(ev.id, { type: 'modal', data: modal });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(await shown, { interactionId: ev.id, applicationId: w.info.app.id, serverId: w.sid, channelId: w.cid, ...modal });

  assert.equal((await w.invoke({ type: 'modal_submit', applicationId: w.info.app.id, customId: 'outro', values: [] })).status, 409, 'no such form open');
  const submitted = next(w.bot, 'INTERACTION_CREATE');
  const submit = await w.invoke({ type: 'modal_submit', applicationId: w.info.app.id, customId: 'cadastro', values: [{ customId: 'nome', value: 'Ana' }] });
  assert.equal(submit.status, 202, submit.text);
  const sev = await submitted;
  assert.equal(sev.type, 'modal_submit');
  assert.equal(sev.customId, 'cadastro');
  assert.deepEqual(sev.values, [{ customId: 'nome', value: 'Ana' }]);
  const twice = await w.invoke({ type: 'modal_submit', applicationId: w.info.app.id, customId: 'cadastro', values: [] });
  assert.equal(twice.status, 409);
  assert.equal(twice.body.error, 'Nenhum formulário aberto com este customId');

  const loop = await w.respond(sev.id, { type: 'modal', data: modal });
  assert.equal(loop.status, 400);
  const thanks = await w.respond(sev.id, { type: 'message', data: { content: 'Obrigado, Ana', ephemeral: true } });
  assert.equal(thanks.status, 200);
});

test('ephemeral answers go to the invoker only and stay out of the history', async () => {
  const w = await world({ intents: ['interactions.receive', 'messages.read'] });
  const cmd = next(w.bot, 'INTERACTION_CREATE');
  await w.command();
  const ev = await cmd;
  const toPerson = next(w.person, 'MESSAGE_CREATE');
  const r = await w.respond(ev.id, { type: 'message', data: { content: 'só para você', ephemeral: true } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.message.flags, 64);
  const seen = await toPerson;
  assert.equal(seen.content, 'só para você');
  assert.equal(seen.flags, 64);
  await quiet();
  assert.deepEqual(w.bot.received.filter((e) => e.name === 'MESSAGE_CREATE'), [], 'bots with messages.read do not see it');
  const history = await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${w.cid}/messages`, { token: w.member.token });
  assert.ok(!history.body.messages.some((m) => m.content === 'só para você'));
});

test('respond: unknown or foreign interactions are 404; bad bodies 400', async () => {
  const w = await world();
  const other = await world();
  const cmd = next(w.bot, 'INTERACTION_CREATE');
  await w.command();
  const ev = await cmd;
  assert.equal((await w.respond('01a1fe3b-0000-7000-8000-000000000000', { type: 'message', data: { content: 'x' } })).status, 404);
  assert.equal((await w.respond('nada', { type: 'message', data: { content: 'x' } })).status, 404);
  const foreign = await w.respond(ev.id, { type: 'message', data: { content: 'x' } }, other.info.botToken);
  assert.equal(foreign.status, 404);
  assert.equal(foreign.body.error, 'Interação não encontrada');
  assert.equal((await w.respond(ev.id, { type: 'message', data: { content: 'x' } }, w.member.token)).status, 403);
  for (const [body, error] of [[{ type: 'message' }, 'data: deve ser um objeto'], [{ type: 'eco', data: {} }, 'type: deve ser message, update, modal, defer, deferUpdate ou autocomplete'], [{ data: {} }, 'type: obrigatório'], [{ type: 'message', data: {} }, /^content: /]]) {
    const r = await w.respond(ev.id, body);
    assert.equal(r.status, 400, JSON.stringify(body));
    if (error instanceof RegExp) assert.match(r.body.error, error);
    else assert.equal(r.body.error, error);
  }
  assert.equal((await w.respond(ev.id, { type: 'message', data: { content: 'ok' } })).status, 200, 'still answerable after bad attempts');
});

// Moves the service's clock: keep this test last.
test('an interaction expires 15 minutes after it was created', async () => {
  const w = await world();
  const first = next(w.bot, 'INTERACTION_CREATE');
  await w.command();
  const a = await first;
  const second = next(w.bot, 'INTERACTION_CREATE');
  await w.command();
  const b = await second;
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 14 * 60_000 } });
  assert.equal((await w.respond(a.id, { type: 'message', data: { content: 'a tempo' } })).status, 200);
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 60_000 } });
  const late = await w.respond(b.id, { type: 'message', data: { content: 'tarde' } });
  assert.equal(late.status, 409);
  assert.equal(late.body.error, 'Interação já respondida ou expirada');
});
