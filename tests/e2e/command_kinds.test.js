// Commands beyond the plain slash: suggestions while typing (autocomplete), context-menu
// commands on members and messages, who may use a command (defaults and a server's overrides),
// names in the person's language, and forms whose fields the server checks before the bot.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, appWithBot, install, serverWithMembers, gatewayConnect, nextEvent: next, sharedServer } = require('./helpers');
const { P } = require('./permissions');

const sockets = [];
const srv = sharedServer({ args: ['--test-clock'] }, sockets);

const COMMANDS = [
  { name: 'cidade', description: 'Previsão', nameLocalizations: { 'en-US': 'city', 'es-ES': 'ciudad' }, descriptionLocalizations: { 'en-US': 'Forecast' },
    options: [{ name: 'nome', description: 'Qual', type: 'string', required: true, autocomplete: true }, { name: 'dias', description: 'Quantos', type: 'integer' }] },
  { name: 'faxina', description: 'Só admins', defaultMemberPermissions: '0' },
  { name: 'expulsa', description: 'Quem expulsa', defaultMemberPermissions: P.EXPULSAR_MEMBROS },
  { type: 'message', name: 'Traduzir mensagem', nameLocalizations: { 'en-US': 'Translate message' } },
  { type: 'user', name: 'Ver perfil' },
];

async function world(commands = COMMANDS) {
  const w = await serverWithMembers(srv.url, 2);
  const info = await appWithBot(srv.url, w.owner, { intents: ['interactions.receive'] });
  await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  const put = await api(srv.url, 'PUT', '/api/bot/commands', { token: info.botToken, body: { commands } });
  assert.equal(put.status, 200, put.text);
  const cid = w.server.channels[0].id;
  const [member, other] = w.members;
  const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
  const person = await gatewayConnect(srv.url, { auth: { token: member.token } }, sockets);
  const invoke = (body, who = member, channel = cid) => api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${channel}/interactions`, { token: who.token, body: { applicationId: info.app.id, ...body } });
  const respond = (id, body) => api(srv.url, 'POST', `/api/bot/interactions/${id}/respond`, { token: info.botToken, body });
  const list = async (who = member, query = '') => {
    const r = await api(srv.url, 'GET', `/api/servers/${w.sid}/commands${query}`, { token: who.token });
    assert.equal(r.status, 200, r.text);
    return r.body.commands;
  };
  const overrides = (commandName, permissions, who = w.owner) => api(srv.url, 'PUT', `/api/servers/${w.sid}/command-permissions`, { token: who.token, body: { applicationId: info.app.id, commandName, permissions } });
  return { ...w, info, cid, member, other, bot, person, invoke, respond, list, overrides };
}

test('autocomplete: the bot gets what is typed and its choices reach the person; 26 choices, a late answer and a wrong kind are refused', async () => {
  const w = await world();
  const created = next(w.bot, 'INTERACTION_CREATE');
  const r = await w.invoke({ type: 'autocomplete', commandName: 'cidade', focused: 'nome', options: [{ name: 'nome', value: 'Sal' }, { name: 'dias', value: 3 }] });
  assert.equal(r.status, 202, r.text);
  const ev = await created;
  assert.equal(ev.type, 'autocomplete');
  assert.equal(ev.commandName, 'cidade');
  assert.deepEqual(ev.options, [{ name: 'nome', type: 'string', value: 'Sal', focused: true }, { name: 'dias', type: 'integer', value: 3 }]);
  assert.match(ev.token, /^[A-Za-z0-9_-]{43}$/);

  const tooMany = Array.from({ length: 26 }, (_, i) => ({ name: `Cidade ${i}`, value: `c${i}` }));
  const refused = await w.respond(ev.id, { type: 'autocomplete', data: { choices: tooMany } });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error, 'data.choices: deve ser uma lista de até 25 {name, value}');
  const wrongKind = await w.respond(ev.id, { type: 'message', data: { content: 'oi' } });
  assert.equal(wrongKind.status, 400);
  assert.equal(wrongKind.body.error, 'type: uma interação autocomplete só se responde com autocomplete');

  const shown = next(w.person, 'INTERACTION_AUTOCOMPLETE');
  const choices = [{ name: 'Salvador', value: 'salvador' }, { name: 'Salto', value: 'salto' }];
  const ok = await w.respond(ev.id, { type: 'autocomplete', data: { choices } });
  assert.equal(ok.status, 200, ok.text);
  const got = await shown;
  assert.deepEqual([got.interactionId, got.commandName, got.choices], [ev.id, 'cidade', choices]);
  assert.equal((await w.respond(ev.id, { type: 'autocomplete', data: { choices } })).status, 409, 'once');

  // Three seconds to answer, not fifteen minutes.
  const second = next(w.bot, 'INTERACTION_CREATE');
  await w.invoke({ type: 'autocomplete', commandName: 'cidade', focused: 'nome', options: [{ name: 'nome', value: 'Rio' }] });
  const late = await second;
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 3100 } });
  const tooLate = await w.respond(late.id, { type: 'autocomplete', data: { choices } });
  assert.equal(tooLate.status, 409);

  // The focused option must complete; a command interaction is not answered with choices.
  const notAuto = await w.invoke({ type: 'autocomplete', commandName: 'cidade', focused: 'dias', options: [] });
  assert.equal(notAuto.status, 400);
  assert.equal(notAuto.body.error, 'focused: não é uma opção com autocomplete deste comando');
  const cmd = next(w.bot, 'INTERACTION_CREATE');
  assert.equal((await w.invoke({ type: 'command', commandName: 'cidade', options: [{ name: 'nome', value: 'Recife' }] })).status, 202);
  const asChoices = await w.respond((await cmd).id, { type: 'autocomplete', data: { choices } });
  assert.equal(asChoices.status, 400);
  assert.equal(asChoices.body.error, 'type: autocomplete só responde a interações autocomplete');
});

test('command definitions: kinds, autocomplete rules and limits of 15 menu commands each', async () => {
  const w = await world();
  const put = (commands) => api(srv.url, 'PUT', '/api/bot/commands', { token: w.info.botToken, body: { commands } });
  const menu = (type, n) => Array.from({ length: n }, (_, i) => ({ type, name: `Menu ${type} ${i}` }));
  assert.equal((await put([...menu('user', 15), ...menu('message', 15)])).status, 200);
  const sixteen = await put(menu('user', 16));
  assert.equal(sixteen.status, 400);
  assert.equal(sixteen.body.error, 'commands.15: no máximo 15 comandos do tipo user');
  const described = await put([{ type: 'message', name: 'Citar', description: 'x' }]);
  assert.equal(described.body.error, 'commands.0.description: comandos de menu não têm descrição');
  const both = await put([{ name: 'a', description: 'd', options: [{ name: 'o', description: 'd', type: 'string', autocomplete: true, choices: [{ name: 'x', value: 'x' }] }] }]);
  assert.equal(both.body.error, 'commands.0.options.0.autocomplete: uma opção com choices não se completa');
  const boolAuto = await put([{ name: 'a', description: 'd', options: [{ name: 'o', description: 'd', type: 'boolean', autocomplete: true }] }]);
  assert.equal(boolAuto.body.error, 'commands.0.options.0.autocomplete: só opções string, integer ou number se completam');
  const badLocale = await put([{ name: 'a', description: 'd', nameLocalizations: { klingon: 'x' } }]);
  assert.equal(badLocale.body.error, 'commands.0.nameLocalizations.klingon: idioma desconhecido (use pt-BR, en-US, es-ES…)');
  const badPerms = await put([{ name: 'a', description: 'd', defaultMemberPermissions: 'muitos' }]);
  assert.equal(badPerms.status, 400);
  assert.match(badPerms.body.error, /^commands\.0\.defaultMemberPermissions: /);
});

test('context menus: a message command carries the message, a user command the member; a message one cannot see is 404', async () => {
  const w = await world();
  const sent = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${w.cid}/messages`, { token: w.other.token, body: { content: 'bom dia a todos' } });
  assert.equal(sent.status, 200, sent.text);
  const mid = sent.body.message.id;
  const created = next(w.bot, 'INTERACTION_CREATE');
  const r = await w.invoke({ type: 'command', commandName: 'Traduzir mensagem', targetId: mid });
  assert.equal(r.status, 202, r.text);
  const ev = await created;
  assert.deepEqual([ev.commandType, ev.targetId, ev.target.id, ev.target.content], ['message', mid, mid, 'bom dia a todos']);

  const user = next(w.bot, 'INTERACTION_CREATE');
  assert.equal((await w.invoke({ type: 'command', commandName: 'Ver perfil', targetId: w.other.user.id })).status, 202);
  const uev = await user;
  assert.deepEqual([uev.commandType, uev.targetId, uev.target.user.id], ['user', w.other.user.id, w.other.user.id]);
  assert.equal(uev.target.status, 'offline', 'the member as shown: not connected');
  const self = next(w.bot, 'INTERACTION_CREATE');
  assert.equal((await w.invoke({ type: 'command', commandName: 'Ver perfil', targetId: w.member.user.id })).status, 202);
  assert.equal((await self).target.status, 'online', 'the member as shown: connected to the gateway');
  const stranger = await w.invoke({ type: 'command', commandName: 'Ver perfil', targetId: '0190a000-0000-7000-8000-000000000000' });
  assert.equal(stranger.status, 404);
  assert.equal((await w.invoke({ type: 'command', commandName: 'Ver perfil' })).status, 400, 'a target is required');
  const withOptions = await w.invoke({ type: 'command', commandName: 'Ver perfil', targetId: w.other.user.id, options: [{ name: 'x', value: 1 }] });
  assert.equal(withOptions.body.error, 'options: comandos de menu não têm opções');

  // A message in a channel the person cannot see: not found, from any channel.
  const hidden = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'staff' } });
  const hid = hidden.body.channel.id;
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/channels/${hid}/overwrites/${w.sid}`, { token: w.owner.token, body: { type: 'role', deny: P.VER_CANAL } });
  const secret = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${hid}/messages`, { token: w.owner.token, body: { content: 'segredo' } });
  assert.equal(secret.status, 200, secret.text);
  const there = await w.invoke({ type: 'command', commandName: 'Traduzir mensagem', targetId: secret.body.message.id }, w.member, hid);
  assert.equal(there.status, 403, there.text); // the channel itself is refused, as everywhere
  const here = await w.invoke({ type: 'command', commandName: 'Traduzir mensagem', targetId: secret.body.message.id });
  assert.equal(here.status, 404);
});

test('permissions: defaults hide commands from the palette and the route refuses them; an admin allows or denies by role, member or channel', async () => {
  const w = await world();
  const names = async (who, q) => (await w.list(who, q)).map((c) => c.name).sort();
  assert.deepEqual(await names(w.member), ['Traduzir mensagem', 'Ver perfil', 'cidade']);
  assert.deepEqual(await names(w.owner), ['Traduzir mensagem', 'Ver perfil', 'cidade', 'expulsa', 'faxina']);
  const denied = await w.invoke({ type: 'command', commandName: 'faxina' });
  assert.equal(denied.status, 403);
  assert.equal(denied.body.error, 'Você não tem permissão para usar este comando aqui');

  // A role with the default's bits sees `expulsa`; an override on a role lets its members use `faxina`.
  const role = (await api(srv.url, 'POST', `/api/servers/${w.sid}/roles`, { token: w.owner.token, body: { name: 'Zeladoria', permissions: P.EXPULSAR_MEMBROS } })).body.role;
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/members/${w.member.user.id}/roles/${role.id}`, { token: w.owner.token });
  assert.deepEqual(await names(w.member), ['Traduzir mensagem', 'Ver perfil', 'cidade', 'expulsa']);
  const put = await w.overrides('faxina', [{ type: 'role', id: role.id, allow: true }]);
  assert.equal(put.status, 200, put.text);
  assert.ok((await names(w.member)).includes('faxina'));
  const bot = next(w.bot, 'INTERACTION_CREATE');
  assert.equal((await w.invoke({ type: 'command', commandName: 'faxina' })).status, 202);
  assert.equal((await bot).commandName, 'faxina');
  assert.ok(!(await names(w.other)).includes('faxina'), 'not for members without the role');

  // A role denied: its members lose a command everyone else keeps.
  await w.overrides('cidade', [{ type: 'role', id: role.id, allow: false }]);
  assert.ok(!(await names(w.member)).includes('cidade'));
  assert.equal((await w.invoke({ type: 'command', commandName: 'cidade', options: [{ name: 'nome', value: 'x' }] })).status, 403);
  assert.ok((await names(w.other)).includes('cidade'), 'members without the role keep it');
  await w.overrides('cidade', []);

  // A member's own override beats the role's; a channel denied refuses everyone but admins there.
  await w.overrides('faxina', [{ type: 'role', id: role.id, allow: true }, { type: 'member', id: w.member.user.id, allow: false }]);
  assert.equal((await w.invoke({ type: 'command', commandName: 'faxina' })).status, 403);
  await w.overrides('cidade', [{ type: 'channel', id: w.cid, allow: false }]);
  assert.ok(!(await names(w.member, `?channelId=${w.cid}`)).includes('cidade'));
  assert.equal((await w.invoke({ type: 'command', commandName: 'cidade', options: [{ name: 'nome', value: 'x' }] })).status, 403);
  assert.ok((await names(w.owner, `?channelId=${w.cid}`)).includes('cidade'), 'admins keep every command');
  // @everyone denied: nobody without a role override uses it.
  await w.overrides('Ver perfil', [{ type: 'role', id: w.sid, allow: false }]);
  assert.ok(!(await names(w.other)).includes('Ver perfil'));

  const all = await api(srv.url, 'GET', `/api/servers/${w.sid}/command-permissions`, { token: w.owner.token });
  assert.equal(all.status, 200, all.text);
  assert.deepEqual(all.body.permissions.map((p) => p.commandName).sort(), ['Ver perfil', 'cidade', 'faxina']);
  // Cleared by an empty list.
  await w.overrides('cidade', []);
  assert.ok((await names(w.member, `?channelId=${w.cid}`)).includes('cidade'));

  // Only a server admin; at most 100 rules; targets of this server; known commands.
  assert.equal((await w.overrides('cidade', [], w.member)).status, 403);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${w.sid}/command-permissions`, { token: w.member.token })).status, 403);
  const many = Array.from({ length: 101 }, (_, i) => ({ type: 'member', id: `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`, allow: true }));
  assert.equal((await w.overrides('cidade', many)).body.error, 'permissions: no máximo 100 regras por comando');
  const foreign = await w.overrides('cidade', [{ type: 'role', id: '0190a000-0000-7000-8000-000000000001', allow: true }]);
  assert.equal(foreign.body.error, 'permissions.0.id: não é um cargo, canal ou membro deste servidor');
  const twice = await w.overrides('cidade', [{ type: 'role', id: role.id, allow: true }, { type: 'role', id: role.id, allow: false }]);
  assert.equal(twice.status, 400);
  assert.equal((await w.overrides('nada', [])).status, 404);
  assert.equal((await w.overrides('cidade', [{ type: 'cargo', id: role.id, allow: true }])).body.error, 'permissions.0.type: deve ser role, member ou channel');
});

test('names in the person\'s language: the account\'s locale picks them, falls back by language, and reaches the bot', async () => {
  const w = await world();
  const me = await api(srv.url, 'GET', '/api/users/@me', { token: w.member.token });
  assert.equal(me.body.user.locale, null);
  const byName = async () => Object.fromEntries((await w.list()).map((c) => [c.name, [c.nameLocalized, c.descriptionLocalized]]));
  assert.deepEqual((await byName()).cidade, ['cidade', 'Previsão']);
  const set = await api(srv.url, 'PATCH', '/api/users/@me', { token: w.member.token, body: { locale: 'en-us' } });
  assert.equal(set.status, 200, set.text);
  assert.equal(set.body.user.locale, 'en-US');
  const en = await byName();
  assert.deepEqual(en.cidade, ['city', 'Forecast']);
  assert.deepEqual(en['Traduzir mensagem'], ['Translate message', '']);
  await api(srv.url, 'PATCH', '/api/users/@me', { token: w.member.token, body: { locale: 'es-419' } });
  assert.deepEqual((await byName()).cidade, ['ciudad', 'Previsão'], 'same language, another region');
  const created = next(w.bot, 'INTERACTION_CREATE');
  await w.invoke({ type: 'command', commandName: 'cidade', options: [{ name: 'nome', value: 'Lima' }] });
  assert.equal((await created).user.locale, 'es-419');
  const bad = await api(srv.url, 'PATCH', '/api/users/@me', { token: w.member.token, body: { locale: 'xx-YY' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error, 'locale: idioma desconhecido (use pt-BR, en-US, es-ES…)');
  const cleared = await api(srv.url, 'PATCH', '/api/users/@me', { token: w.member.token, body: { locale: null } });
  assert.equal(cleared.body.user.locale, null);
  assert.equal((await api(srv.url, 'PATCH', '/api/users/@me', { token: w.info.botToken, body: { locale: 'en-US' } })).status, 403);
});

test('forms: a select and a paragraph, checked by the server before the bot sees the submission', async () => {
  const w = await world([{ name: 'relato', description: 'Conte' }]);
  const created = next(w.bot, 'INTERACTION_CREATE');
  await w.invoke({ type: 'command', commandName: 'relato' });
  const ev = await created;
  const modal = {
    customId: 'relato', title: 'Relato',
    components: [
      { type: 1, components: [{ type: 3, customId: 'gravidade', options: [{ label: 'Baixa', value: 'baixa' }, { label: 'Alta', value: 'alta' }, { label: 'Crítica', value: 'critica' }], minValues: 1, maxValues: 2 }] },
      { type: 1, components: [{ type: 4, customId: 'texto', label: 'O que houve', style: 2, minLength: 10, maxLength: 200 }] },
      { type: 1, components: [{ type: 4, customId: 'nota', label: 'Nota', style: 1, required: false }] },
    ],
  };
  const shown = next(w.person, 'INTERACTION_MODAL');
  const r = await w.respond(ev.id, { type: 'modal', data: modal });
  assert.equal(r.status, 200, r.text);
  assert.equal((await shown).components[0].components[0].type, 3);
  const submit = (values) => w.invoke({ type: 'modal_submit', customId: 'relato', values });
  const cases = [
    [[{ customId: 'gravidade', values: ['alta'] }], 'values.texto: obrigatório'],
    [[{ customId: 'gravidade', values: ['alta'] }, { customId: 'texto', value: 'curto' }], 'values.texto: deve ter de 10 a 200 caracteres'],
    [[{ customId: 'texto', value: 'aconteceu algo sério' }], 'values.gravidade: escolha de 1 a 2 opções'],
    [[{ customId: 'gravidade', values: ['alta', 'baixa', 'critica'] }, { customId: 'texto', value: 'aconteceu algo sério' }], 'values.gravidade: escolha de 1 a 2 opções'],
    [[{ customId: 'gravidade', values: ['enorme'] }, { customId: 'texto', value: 'aconteceu algo sério' }], 'values.gravidade: não é uma das opções: enorme'],
    [[{ customId: 'gravidade', value: 'alta' }, { customId: 'texto', value: 'aconteceu algo sério' }], 'values.gravidade: uma seleção se envia em values'],
    [[{ customId: 'gravidade', values: ['alta'] }, { customId: 'texto', value: 'aconteceu algo sério' }, { customId: 'outro', value: 'x' }], 'values: campo desconhecido: outro'],
  ];
  for (const [values, error] of cases) {
    const bad = await submit(values);
    assert.equal(bad.status, 400, JSON.stringify(values));
    assert.equal(bad.body.error, error);
  }
  const sub = next(w.bot, 'INTERACTION_CREATE');
  const ok = await submit([{ customId: 'gravidade', values: ['alta', 'critica'] }, { customId: 'texto', value: 'aconteceu algo sério' }]);
  assert.equal(ok.status, 202, ok.text);
  const got = await sub;
  assert.equal(got.type, 'modal_submit');
  assert.deepEqual(got.values, [{ customId: 'gravidade', values: ['alta', 'critica'] }, { customId: 'texto', value: 'aconteceu algo sério' }]);
  assert.equal((await submit([{ customId: 'gravidade', values: ['alta'] }, { customId: 'texto', value: 'aconteceu algo sério' }])).status, 409, 'a form is submitted once');

  const badModal = await w.respond((await (async () => { const c = next(w.bot, 'INTERACTION_CREATE'); await w.invoke({ type: 'command', commandName: 'relato' }); return c; })()).id,
    { type: 'modal', data: { customId: 'x', title: 'X', components: [{ type: 1, components: [{ type: 3, customId: 's', options: [{ label: 'a', value: 'a' }], minValues: 2 }] }] } });
  assert.equal(badModal.status, 400);
  assert.equal(badModal.body.error, 'data.components.0.components.0: minValues deve caber entre as opções e em maxValues');
});
