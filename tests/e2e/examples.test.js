// The programs in examples/, run as a reader runs them, against a live server: bootstrap.mjs
// installs a bot, bot.mjs and bot.py answer "!ping", /dado, its buttons and its form,
// endpoint.mjs answers signed interactions; and the README's snippets are copied from them.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startServer, api, uniqueName, gatewayConnect, eventually, tempDir } = require('./helpers');

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
const README = path.join(__dirname, '..', '..', 'README.md');
let srv;
const running = [];
const sockets = [];
test.before(async () => { srv = await startServer({ args: ['--allow-private-endpoints'] }); });
test.after(async () => {
  for (const p of running) p.kill('SIGTERM');
  for (const s of sockets) s.close();
  const r = await srv.stop();
  assert.equal(r.code, 0, srv.stderr);
});

// Starts a program with env; resolves {proc, out(), err(), waitFor(regex), exited}.
function run(cmd, args, env) {
  const proc = spawn(cmd, args, { cwd: EXAMPLES, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(proc);
  let out = '', err = '';
  const waiters = [];
  const check = () => {
    for (const w of waiters.splice(0)) {
      const m = (out + err).match(w.re);
      if (m) w.resolve(m); else waiters.push(w);
    }
  };
  proc.stdout.on('data', (d) => { out += d; check(); });
  proc.stderr.on('data', (d) => { err += d; check(); });
  const exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    proc, exited,
    out: () => out, err: () => err,
    waitFor(re, ms = 15000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${re} in:\n${out}\n${err}`)), ms);
        waiters.push({ re, resolve: (m) => { clearTimeout(timer); resolve(m); } });
        check();
      });
    },
  };
}

async function until(what, fn, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// bootstrap.mjs for a new person; their session, and the env the other programs need.
async function bootstrap() {
  const username = uniqueName('ex');
  const password = 'uma senha longa';
  const b = run(process.execPath, ['bootstrap.mjs', '--register'], { PRACA_URL: srv.url, PRACA_USERNAME: username, PRACA_PASSWORD: password });
  assert.equal(await b.exited, 0, b.err());
  const env = Object.fromEntries(b.out().trim().split('\n').map((l) => l.split(/=(.*)/s).slice(0, 2)));
  const login = await api(srv.url, 'POST', '/api/auth/login', { body: { username, password } });
  return { env, person: login.body.token, stderr: b.err(), username, password };
}

const history = async (w) => (await api(srv.url, 'GET', `/api/servers/${w.env.PRACA_SERVER_ID}/channels/${w.env.PRACA_CHANNEL_ID}/messages`, { token: w.person })).body.messages;
const invoke = (w, body) => api(srv.url, 'POST', `/api/servers/${w.env.PRACA_SERVER_ID}/channels/${w.env.PRACA_CHANNEL_ID}/interactions`, { token: w.person, body });

test('bootstrap.mjs: an application, its bot, intents and an install in a new server, with the consent link it used', async () => {
  const w = await bootstrap();
  assert.deepEqual(Object.keys(w.env), ['PRACA_URL', 'PRACA_BOT_TOKEN', 'PRACA_APP_ID', 'PRACA_SERVER_ID', 'PRACA_CHANNEL_ID']);
  const consent = w.stderr.match(/(http:\S+\/oauth2\/authorize\?\S+)/)[1];
  const q = new URL(consent).searchParams;
  assert.equal(q.get('permissions'), String(256 | 512 | 4096 | 65536));
  const me = await api(srv.url, 'GET', '/api/bot/@me', { token: w.env.PRACA_BOT_TOKEN });
  assert.equal(me.status, 200);
  assert.equal(me.body.application.id, w.env.PRACA_APP_ID);
  assert.equal(q.get('client_id'), me.body.application.clientId);
  assert.deepEqual(me.body.application.intents.sort(), ['interactions.receive', 'messages.read']);
  const servers = await api(srv.url, 'GET', '/api/bot/servers', { token: w.env.PRACA_BOT_TOKEN });
  assert.deepEqual(servers.body.servers.map((s) => [s.id, s.grantedPermissions]), [[w.env.PRACA_SERVER_ID, 256 | 512 | 4096 | 65536]]);

  // The admin who installs it lands back in the chat.
  assert.equal(q.get('redirect_uri'), `${srv.url}/app`);

  // Run again: the same application and server, a new token, nothing duplicated.
  const again = run(process.execPath, ['bootstrap.mjs'], { PRACA_URL: srv.url, PRACA_USERNAME: w.username, PRACA_PASSWORD: w.password });
  assert.equal(await again.exited, 0, again.err());
  const env2 = Object.fromEntries(again.out().trim().split('\n').map((l) => l.split(/=(.*)/s).slice(0, 2)));
  assert.equal(env2.PRACA_APP_ID, w.env.PRACA_APP_ID);
  assert.equal(env2.PRACA_SERVER_ID, w.env.PRACA_SERVER_ID);
  assert.equal(env2.PRACA_CHANNEL_ID, w.env.PRACA_CHANNEL_ID);
  assert.notEqual(env2.PRACA_BOT_TOKEN, w.env.PRACA_BOT_TOKEN);
  assert.match(again.err(), /^Reused application/);
  assert.equal((await api(srv.url, 'GET', '/api/bot/@me', { token: env2.PRACA_BOT_TOKEN })).status, 200);
  assert.equal((await api(srv.url, 'GET', '/api/applications', { token: w.person })).body.applications.length, 1);
  assert.equal((await api(srv.url, 'GET', '/api/servers', { token: w.person })).body.servers.length, 1);

  // A praca that is not there is named. Port 2, where nothing listens here (privileged, and
  // not one fetch refuses): a port freed a moment ago may meanwhile be given to a server
  // another test starts.
  const closed = 2;
  const nowhere = run(process.execPath, ['bootstrap.mjs'], { PRACA_URL: `http://127.0.0.1:${closed}`, PRACA_USERNAME: w.username, PRACA_PASSWORD: w.password });
  assert.equal(await nowhere.exited, 1);
  assert.equal(nowhere.err(), `bootstrap: cannot reach http://127.0.0.1:${closed} (ECONNREFUSED); is praca running there? Set PRACA_URL to its address\n`);

  const wrong = run(process.execPath, ['bootstrap.mjs'], { PRACA_URL: srv.url, PRACA_USERNAME: uniqueName('no'), PRACA_PASSWORD: 'errada errada' });
  assert.equal(await wrong.exited, 1);
  assert.match(wrong.err(), /^bootstrap: POST \/api\/auth\/login: 401 Usuário ou senha incorretos/);
  const none = run(process.execPath, ['bootstrap.mjs'], { PRACA_URL: srv.url });
  assert.equal(await none.exited, 2);
  assert.match(none.err(), /PRACA_USERNAME and PRACA_PASSWORD/);
});

// !ping, /dado with options, "Rolar de novo" (update), "Sugerir um dado" (modal), the form's
// ephemeral thanks: the same for both bots.
async function exercise(w, bot) {
  await bot.waitFor(/connected as @\w+/);
  const person = await gatewayConnect(srv.url, { auth: { token: w.person } }, sockets);
  const ping = await api(srv.url, 'POST', `/api/servers/${w.env.PRACA_SERVER_ID}/channels/${w.env.PRACA_CHANNEL_ID}/messages`, { token: w.person, body: { content: '!ping' } });
  assert.equal(ping.status, 200, ping.text);
  const pong = await until('pong', async () => (await history(w)).find((m) => m.content === 'pong'));
  assert.equal(pong.replyToId, ping.body.message.id);

  const commands = await api(srv.url, 'GET', `/api/servers/${w.env.PRACA_SERVER_ID}/commands`, { token: w.person });
  assert.deepEqual(commands.body.commands.map((c) => [c.type, c.name, c.options.map((o) => o.name)]),
    [['message', 'Contar letras', []], ['chat', 'cor', ['nome']], ['chat', 'dado', ['lados', 'vezes']], ['chat', 'pensa', []]]);
  const used = await invoke(w, { type: 'command', applicationId: w.env.PRACA_APP_ID, commandName: 'dado', options: [{ name: 'lados', value: 20 }, { name: 'vezes', value: 2 }] });
  assert.equal(used.status, 202, used.text);
  const rolled = await until('the roll', async () => (await history(w)).find((m) => /^🎲 d20: \d+, \d+$/.test(m.content)));
  assert.equal(rolled.commandName, 'dado');
  const buttons = rolled.components[0].components.map((c) => c.customId);
  assert.deepEqual(buttons, ['dado:20:2', 'sugerir']);

  assert.equal((await invoke(w, { type: 'component', messageId: rolled.id, customId: 'dado:20:2' })).status, 202);
  await until('the roll again', async () => (await history(w)).find((m) => m.id === rolled.id && m.editedAt));

  const modal = new Promise((resolve) => person.once('INTERACTION_MODAL', resolve));
  assert.equal((await invoke(w, { type: 'component', messageId: rolled.id, customId: 'sugerir' })).status, 202);
  const form = await modal;
  assert.equal(form.customId, 'sugestao');
  assert.equal(form.components[0].components[0].customId, 'lados');
  const thanks = new Promise((resolve) => person.on('MESSAGE_CREATE', (m) => m.flags === 64 && resolve(m)));
  const submit = await invoke(w, { type: 'modal_submit', applicationId: w.env.PRACA_APP_ID, customId: 'sugestao', values: [{ customId: 'lados', value: '12' }] });
  assert.equal(submit.status, 202, submit.text);
  assert.equal((await thanks).content, 'Obrigado! Anotei a sugestão: d12');

  // /pensa: thinking at once, then the answer in the same message, then a follow-up.
  const thinkingSeen = new Promise((resolve) => person.on('MESSAGE_CREATE', (m) => m.commandName === 'pensa' && m.flags === 128 && resolve(m)));
  const slow = await invoke(w, { type: 'command', applicationId: w.env.PRACA_APP_ID, commandName: 'pensa' });
  assert.equal(slow.status, 202, slow.text);
  const thinking = await thinkingSeen;
  const answered = await until('the answer in its place', async () => (await history(w)).find((m) => m.id === thinking.id && m.flags === 0));
  assert.equal(answered.content, '🤔 Pensei: a resposta é 42.');
  await until('the follow-up', async () => (await history(w)).find((m) => m.commandName === 'pensa' && m.content === 'Pergunte de novo quando quiser.'));

  // /cor: suggestions for what is typed, then the command with one of them.
  await bot.waitFor(/answered command pensa later/); // the bot's log stays in order
  const suggested = new Promise((resolve) => person.once('INTERACTION_AUTOCOMPLETE', resolve));
  const typing = await invoke(w, { type: 'autocomplete', applicationId: w.env.PRACA_APP_ID, commandName: 'cor', focused: 'nome', options: [{ name: 'nome', value: 'ro' }] });
  assert.equal(typing.status, 202, typing.text);
  assert.deepEqual((await suggested).choices, [{ name: 'rosa', value: 'rosa' }, { name: 'roxo', value: 'roxo' }]);
  assert.equal((await invoke(w, { type: 'command', applicationId: w.env.PRACA_APP_ID, commandName: 'cor', options: [{ name: 'nome', value: 'roxo' }] })).status, 202);
  await until('the colour', async () => (await history(w)).find((m) => m.content === '🎨 roxo'));

  // "Contar letras" on the !ping message, from its Apps menu: an answer for the person only.
  const counted = new Promise((resolve) => person.on('MESSAGE_CREATE', (m) => m.commandName === 'Contar letras' && resolve(m)));
  const menu = await invoke(w, { type: 'command', applicationId: w.env.PRACA_APP_ID, commandName: 'Contar letras', targetId: ping.body.message.id });
  assert.equal(menu.status, 202, menu.text);
  const count = await counted;
  assert.deepEqual([count.content, count.flags], ['A mensagem tem 5 caracteres.', 64]);
  person.close();
}

test('bot.mjs: !ping, /dado with options, a button that edits, a button that opens a form', async () => {
  const w = await bootstrap();
  const bot = run(process.execPath, ['bot.mjs'], w.env);
  await exercise(w, bot);
  await bot.waitFor(/answered command pensa later/);
  await bot.waitFor(/answered command Contar letras/);
  assert.match(bot.out(), /pong to \S+\nanswered command dado\nanswered component dado:20:2\nanswered component sugerir\nanswered modal_submit sugestao\nanswered command pensa later\nanswered autocomplete cor\nanswered command cor\nanswered command Contar letras/);
  assert.equal(bot.err(), '', 'nothing to warn about');

  // say.mjs: the person's side from a terminal, as the README uses it.
  const as = { ...w.env, PRACA_USERNAME: w.username, PRACA_PASSWORD: w.password };
  const ping = run(process.execPath, ['say.mjs', '!ping'], as);
  assert.equal(await ping.exited, 0, ping.err());
  assert.equal(ping.out(), 'bot: pong\n');
  const dado = run(process.execPath, ['say.mjs', '/dado', 'lados=6', 'vezes=3'], as);
  assert.equal(await dado.exited, 0, dado.err());
  assert.match(dado.out(), /^bot: 🎲 d6: [1-6], [1-6], [1-6]\n$/);
  // A deferred answer: nothing is printed while the bot thinks, then its answer.
  const pensa = run(process.execPath, ['say.mjs', '/pensa'], as);
  assert.equal(await pensa.exited, 0, pensa.err());
  assert.match(pensa.out(), /^bot: 🤔 Pensei: a resposta é 42\.\n/);
  assert.doesNotMatch(pensa.out(), /^bot: $/m);
  const unknown = run(process.execPath, ['say.mjs', '/nada'], as);
  assert.equal(await unknown.exited, 1);
  assert.equal(unknown.err(), 'say: no command /nada here; this server has: /cor /dado /pensa\n');
  bot.proc.kill('SIGTERM');
  assert.equal(await bot.exited, 0);
  const alone = run(process.execPath, ['say.mjs', '!ping'], as);
  assert.equal(await alone.exited, 1);
  assert.match(alone.err(), /no answer within 5 s: is the bot running\?/);
  // Each of the five runs signed out the session it signed in with.
  assert.ok((srv.stderr.match(/method=POST route=\/api\/auth\/logout status=200/g) || []).length >= 5, 'say.mjs signs out');
});

test('bot.py (python-socketio): the same bot in Python', async () => {
  const w = await bootstrap();
  const bot = run('/usr/bin/python3', ['bot.py'], w.env);
  await exercise(w, bot);
  await bot.waitFor(/answered command pensa later/);
  bot.proc.kill('SIGTERM');
  assert.equal(await bot.exited, 0);
});

test('both bots say why they stop or stay silent: a wrong token, intents off', async () => {
  const w = await bootstrap();
  for (const [cmd, file] of [[process.execPath, 'bot.mjs'], ['/usr/bin/python3', 'bot.py']]) {
    const wrong = run(cmd, [file], { ...w.env, PRACA_BOT_TOKEN: 'x'.repeat(40) });
    assert.equal(await wrong.exited, 1, file);
    assert.match(wrong.err(), /Cannot start: GET \/api\/bot\/@me: 401/, file);
    const none = run(cmd, [file], { PRACA_URL: srv.url });
    assert.notEqual(await none.exited, 0, file);
    assert.match(none.err(), /Set PRACA_BOT_TOKEN/, file);
  }
  const owner = (await api(srv.url, 'GET', `/api/applications/${w.env.PRACA_APP_ID}`, { token: w.person }));
  assert.equal(owner.status, 200);
  assert.equal((await api(srv.url, 'PUT', `/api/applications/${w.env.PRACA_APP_ID}/intents`, { token: w.person, body: { intents: [] } })).status, 200);
  for (const [cmd, file] of [[process.execPath, 'bot.mjs'], ['/usr/bin/python3', 'bot.py']]) {
    const bot = run(cmd, [file], w.env);
    await bot.waitFor(/connected as/);
    assert.match(bot.err(), /the intent messages\.read is off/, file);
    assert.match(bot.err(), /the intent interactions\.receive is off/, file);
    assert.match(bot.err(), /Comandos salvos, mas a intent interactions\.receive está desligada/, file);
    bot.proc.kill('SIGTERM');
    assert.equal(await bot.exited, 0, file);
  }
});

test('endpoint.mjs: signed interactions answered at its own URL; unsigned ones refused', async () => {
  const w = await bootstrap();
  const secret = await api(srv.url, 'POST', `/api/applications/${w.env.PRACA_APP_ID}/interactions/signing-secret/rotate`, { token: w.person });
  assert.equal(secret.status, 200, secret.text);
  const ep = run(process.execPath, ['endpoint.mjs'], { PRACA_SIGNING_SECRET: secret.body.signingSecret, PORT: '0' });
  const url = (await ep.waitFor(/listening on (\S+)/))[1];
  const cfg = await api(srv.url, 'PUT', `/api/applications/${w.env.PRACA_APP_ID}/interactions-config`, { token: w.person, body: { interactionsEndpointUrl: url } });
  assert.equal(cfg.status, 200, cfg.text);
  const probe = await api(srv.url, 'POST', `/api/applications/${w.env.PRACA_APP_ID}/interactions-config/test`, { token: w.person });
  assert.equal(probe.body.ok, true, probe.text);

  await api(srv.url, 'PUT', '/api/bot/commands', { token: w.env.PRACA_BOT_TOKEN, body: { commands: [{ name: 'dado', description: 'Rola um dado', options: [{ name: 'lados', description: 'Lados', type: 'integer' }] }] } });
  const used = await invoke(w, { type: 'command', applicationId: w.env.PRACA_APP_ID, commandName: 'dado', options: [{ name: 'lados', value: 8 }] });
  assert.equal(used.status, 202, used.text);
  assert.ok((await history(w)).some((m) => /^🎲 d8: [1-8] \(via endpoint\)$/.test(m.content)));

  const forged = await fetch(url, { method: 'POST', headers: { 'x-signature-timestamp': String(Math.floor(Date.now() / 1000)), 'x-signature-256': 'sha256=' + '0'.repeat(64) }, body: '{"type":"ping"}' });
  assert.equal(forged.status, 401);
  const stale = await fetch(url, { method: 'POST', headers: { 'x-signature-timestamp': '1000' }, body: '{"type":"ping"}' });
  assert.equal(stale.status, 401);
  await ep.waitFor(/interaction ping\ninteraction command dado\nrefused: bad or missing signature\nrefused: bad or missing signature\n/);
  ep.proc.kill('SIGTERM');
  assert.equal(await ep.exited, 0);
});

test('push_receiver.mjs: events pushed to its URL, a !ping answered once even when a batch comes twice', async () => {
  const w = await bootstrap();
  const secret = (await api(srv.url, 'POST', `/api/applications/${w.env.PRACA_APP_ID}/interactions/signing-secret/rotate`, { token: w.person })).body.signingSecret;
  const dir = tempDir('praca-push-');
  const rx = run(process.execPath, ['push_receiver.mjs'], { ...w.env, PRACA_SIGNING_SECRET: secret, PORT: '0', PUSH_STATE_FILE: path.join(dir, 'state.json') });
  const url = (await rx.waitFor(/listening on (\S+)/))[1];
  const cfg = await api(srv.url, 'PUT', `/api/applications/${w.env.PRACA_APP_ID}/events-config`, { token: w.person, body: { eventsEndpointUrl: url } });
  assert.equal(cfg.status, 200, cfg.text);
  const ping = await api(srv.url, 'POST', `/api/servers/${w.env.PRACA_SERVER_ID}/channels/${w.env.PRACA_CHANNEL_ID}/messages`, { token: w.person, body: { content: '!ping' } });
  const pongs = async () => (await history(w)).filter((m) => m.content === 'pong' && m.replyTo?.id === ping.body.message.id).length;
  await rx.waitFor(new RegExp(`event \\d+ MESSAGE_CREATE`));
  await eventually(async () => (await pongs()) === 1 || await pongs(), 10000, 'the pong');
  // The same batch again (a replay from before the !ping): taken once, by position.
  const config = async () => (await api(srv.url, 'GET', `/api/applications/${w.env.PRACA_APP_ID}/events-config`, { token: w.person })).body;
  const deliveries = async () => (await config()).deliveries;
  await rx.waitFor(/event \d+ MESSAGE_CREATE[\s\S]*event \d+ MESSAGE_CREATE/); // the !ping and the pong
  await eventually(async () => { const c = await config(); return c.cursor === c.lastPosition || c; }, 10000, 'everything delivered');
  const before = (await deliveries()).length;
  const again = await api(srv.url, 'POST', `/api/applications/${w.env.PRACA_APP_ID}/events-config/replay`, { token: w.person, body: { after: cfg.body.cursor } });
  assert.equal(again.status, 200, again.text);
  await eventually(async () => (await deliveries()).length > before || (await deliveries()).length, 10000, 'the replay delivered');
  assert.equal(await pongs(), 1);
  const forged = await fetch(url, { method: 'POST', headers: { 'x-signature-timestamp': String(Math.floor(Date.now() / 1000)), 'x-signature-256': 'sha256=' + '0'.repeat(64) }, body: '{"events":[]}' });
  assert.equal(forged.status, 401);
});

test('webhook.sh: curl posts through a webhook URL and prints the message; a wrong URL says why', async () => {
  const w = await bootstrap();
  const made = await api(srv.url, 'POST', `/api/servers/${w.env.PRACA_SERVER_ID}/channels/${w.env.PRACA_CHANNEL_ID}/webhooks`, { token: w.person, body: { name: 'CI' } });
  assert.equal(made.status, 201, made.text);
  const sh = run('/bin/sh', ['webhook.sh', 'Deploy "v2" concluído'], { PRACA_WEBHOOK_URL: made.body.url });
  assert.equal(await sh.exited, 0, sh.err());
  const id = /^posted (\S+)\n$/.exec(sh.out());
  assert.ok(id, sh.out());
  const m = (await history(w)).find((x) => x.id === id[1]);
  assert.deepEqual([m.content, m.webhook.name, m.embeds.length], ['Deploy "v2" concluído', 'Script', 1]);
  const wrong = run('/bin/sh', ['webhook.sh', 'x'], { PRACA_WEBHOOK_URL: made.body.url.replace(/[^/]+$/, 'x'.repeat(43)) });
  assert.equal(await wrong.exited, 1);
  assert.match(wrong.err(), /\nwebhook: \{"error":"Token de webhook inválido"\}\n$/, "curl says the status, the script what praca answered");
});

test('tour.mjs: register, a server, an invite; a taken name is an error with its reason', async () => {
  const name = uniqueName('tour');
  const tour = run(process.execPath, ['tour.mjs', name, 'outra senha longa'], { PRACA_URL: srv.url });
  assert.equal(await tour.exited, 0, tour.err());
  assert.match(tour.out(), new RegExp(`^#geral is ready in "Praça de ${name}"; invite code \\S+\n$`));
  const again = run(process.execPath, ['tour.mjs', name, 'outra senha longa'], { PRACA_URL: srv.url });
  assert.notEqual(await again.exited, 0);
  assert.match(again.err(), /POST \/api\/auth\/register: 409/);
});

test("the README's code is copied from examples/, line for line", () => {
  const readme = fs.readFileSync(README, 'utf8');
  const blocks = [...readme.matchAll(/<!-- from (examples\/\S+) -->\n```\w*\n([\s\S]*?)```/g)];
  assert.ok(blocks.length >= 3, 'the README quotes the examples');
  for (const [, file, code] of blocks) {
    const source = fs.readFileSync(path.join(__dirname, '..', '..', file), 'utf8');
    for (const line of code.split('\n').filter((l) => l.trim() && !/^\s*(\/\/|#) …/.test(l)))
      assert.ok(source.includes(line), `${file} has no line ${JSON.stringify(line)}`);
  }
});

test('grafico.mjs: /grafico answers with a PNG it drew, uploaded and shown through attachment://', async () => {
  const w = await bootstrap();
  const bot = run(process.execPath, ['grafico.mjs'], w.env);
  await bot.waitFor(/connected/);
  const used = await invoke(w, { type: 'command', applicationId: w.env.PRACA_APP_ID, commandName: 'grafico', options: [{ name: 'barras', value: 5 }] });
  assert.equal(used.status, 202, used.text);
  const m = await until('the chart', async () => (await history(w)).find((x) => x.commandName === 'grafico'));
  assert.match(m.content, /^📊 \d+( · \d+){4}$/);
  const [file] = m.attachments;
  assert.equal(file.filename, 'grafico.png');
  assert.equal(file.contentType, 'image/png');
  assert.deepEqual([file.width, file.height], [480, 270]);
  assert.equal(m.embeds[0].image.url, file.url);
  const res = await fetch(file.url, { headers: { authorization: `Bearer ${w.person}` } });
  assert.equal(res.status, 200);
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.equal(bytes.subarray(1, 4).toString(), 'PNG');
  await bot.waitFor(/answered grafico with 5 bars/);
  assert.equal(bot.err(), '');
});
