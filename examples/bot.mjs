// A complete bot: answers "!ping", offers the slash command /dado with options, a button that
// rolls again and a button that opens a form (modal), /pensa, a slow command answered later,
// /cor, whose option the bot completes as the person types, and "Contar letras" in a message's
// Apps menu.
//
//   npm install            # in this folder, once (socket.io-client)
//   PRACA_BOT_TOKEN=… node bot.mjs
//
// The application needs the intents messages.read (for !ping) and interactions.receive (for
// /dado, the buttons and the form); examples/bootstrap.mjs sets both up. PRACA_URL defaults to
// http://127.0.0.1:8080. It says what happens on stdout, and why it stops on stderr.
import { io } from 'socket.io-client';

const base = process.env.PRACA_URL || 'http://127.0.0.1:8080';
const token = process.env.PRACA_BOT_TOKEN;
if (!token) {
  console.error('Set PRACA_BOT_TOKEN to your bot token (examples/bootstrap.mjs prints one).');
  process.exit(2);
}

async function call(method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${data.error || ''}`.trim());
  return data;
}

const dado = {
  name: 'dado',
  description: 'Rola um dado',
  options: [
    { name: 'lados', description: 'Quantos lados (padrão 6)', type: 'integer' },
    { name: 'vezes', description: 'Quantas rolagens (padrão 1)', type: 'integer', choices: [1, 2, 3].map((n) => ({ name: String(n), value: n })) },
  ],
};

function roll(sides, times) {
  const results = Array.from({ length: times }, () => 1 + Math.floor(Math.random() * sides));
  return {
    content: `🎲 d${sides}: ${results.join(', ')}`,
    components: [{
      type: 1,
      components: [
        { type: 2, style: 1, label: 'Rolar de novo', customId: `dado:${sides}:${times}` },
        { type: 2, style: 2, label: 'Sugerir um dado', customId: 'sugerir' },
      ],
    }],
  };
}

const sugestao = {
  customId: 'sugestao',
  title: 'Sugira um dado',
  components: [{ type: 1, components: [{ type: 4, customId: 'lados', label: 'Quantos lados?', style: 1, required: true, maxLength: 3 }] }],
};

function answer(i) {
  if (i.type === 'command' && i.commandName === 'dado') {
    const opt = (name, fallback) => i.options?.find((o) => o.name === name)?.value ?? fallback;
    return { type: 'message', data: roll(Math.min(Math.max(opt('lados', 6), 2), 1000), opt('vezes', 1)) };
  }
  if (i.type === 'component' && i.customId.startsWith('dado:')) {
    const [, sides, times] = i.customId.split(':').map(Number);
    return { type: 'update', data: roll(sides, times) };
  }
  if (i.type === 'component' && i.customId === 'sugerir') return { type: 'modal', data: sugestao };
  if (i.type === 'autocomplete' && i.commandName === 'cor') { // suggestions for what is typed so far
    const typed = String(i.options.find((o) => o.focused).value).toLowerCase();
    return { type: 'autocomplete', data: { choices: CORES.filter((c) => c.startsWith(typed)).slice(0, 25).map((c) => ({ name: c, value: c })) } };
  }
  if (i.type === 'command' && i.commandName === 'cor') return { type: 'message', data: { content: `🎨 ${i.options[0].value}` } };
  if (i.type === 'command' && i.commandName === 'Contar letras') // the message it was run on is i.target
    return { type: 'message', data: { content: `A mensagem tem ${[...i.target.content].length} caracteres.`, ephemeral: true } };
  if (i.type === 'modal_submit' && i.customId === 'sugestao') {
    const sides = i.values.find((v) => v.customId === 'lados')?.value;
    return { type: 'message', data: { content: `Obrigado! Anotei a sugestão: d${sides}`, ephemeral: true } };
  }
  return null;
}

const CORES = ['amarelo', 'azul', 'branco', 'cinza', 'laranja', 'preto', 'rosa', 'roxo', 'verde', 'vermelho'];

// Say at once what would otherwise make the bot silent.
const { user, application } = await call('GET', '/api/bot/@me').catch((err) => {
  console.error(`Cannot start: ${err.message}`);
  process.exit(1);
});
for (const intent of ['messages.read', 'interactions.receive']) {
  if (!application.intents.includes(intent))
    console.error(`Warning: the intent ${intent} is off for "${application.name}"; turn it on in the developer portal.`);
}
const pensa = { name: 'pensa', description: 'Pensa um pouco antes de responder' };
const cor = { name: 'cor', description: 'Mostra uma cor',
  options: [{ name: 'nome', description: 'Qual cor', type: 'string', required: true, autocomplete: true }] };
const contar = { type: 'message', name: 'Contar letras' };
const saved = await call('PUT', '/api/bot/commands', { commands: [dado, pensa, cor, contar] });
if (saved.warning) console.error(`Warning: ${saved.warning}`);

const socket = io(base, { auth: { token } });
socket.on('connect', () => console.log(`connected as @${user.username}`));
socket.on('connect_error', (err) => {
  console.error(`connection refused: ${err.message}`);
  if (!socket.active) process.exit(1); // a refused token is final; network errors are retried
});
socket.on('disconnect', (reason) => console.log(`disconnected (${reason})${socket.active ? '; reconnecting' : ''}`));

socket.on('MESSAGE_CREATE', async (m) => {
  if (m.applicationId || m.content.trim() !== '!ping') return; // never answer bots, itself included
  await call('POST', `/api/bot/servers/${m.serverId}/channels/${m.channelId}/messages`, { content: 'pong', replyToId: m.id })
    .then(() => console.log(`pong to ${m.id}`), (err) => console.error(err.message));
});

// A slow answer: "thinking…" at once (defer), the answer in its place when the work is done,
// then a follow-up. The last two need only the interaction's own token, not the bot's: a
// separate worker could send them.
async function answerLater(i) {
  await call('POST', `/api/bot/interactions/${i.id}/respond`, { type: 'defer' });
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the slow work
  const later = (method, path, body) => fetch(`${base}/api/interactions/${i.id}/${i.token}${path}`, {
    method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  }).then((res) => { if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`); });
  await later('PATCH', '/messages/@original', { content: '🤔 Pensei: a resposta é 42.' });
  await later('POST', '/followups', { content: 'Pergunte de novo quando quiser.' });
}

socket.on('INTERACTION_CREATE', async (i) => {
  if (i.type === 'command' && i.commandName === 'pensa') {
    return answerLater(i).then(() => console.log('answered command pensa later'), (err) => console.error(err.message));
  }
  const reply = answer(i);
  if (!reply) return;
  await call('POST', `/api/bot/interactions/${i.id}/respond`, reply)
    .then(() => console.log(`answered ${i.type} ${i.commandName || i.customId}`), (err) => console.error(err.message));
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => { socket.close(); process.exit(0); });
