// A person's side of the conversation, from a terminal: post a message or invoke a slash
// command in the bootstrap's channel, then print what the bots answered.
//
//   node say.mjs '!ping'
//   node say.mjs /dado lados=20 vezes=2
//
// Reads PRACA_URL, PRACA_USERNAME, PRACA_PASSWORD, PRACA_SERVER_ID and PRACA_CHANNEL_ID (the last
// two from bootstrap.mjs's output).
const base = process.env.PRACA_URL || 'http://127.0.0.1:8080';
const { PRACA_USERNAME: username, PRACA_PASSWORD: password, PRACA_SERVER_ID: sid, PRACA_CHANNEL_ID: cid } = process.env;
const [text, ...args] = process.argv.slice(2);
if (!username || !password || !sid || !cid || !text) {
  console.error('usage: node say.mjs TEXT | /command name=value …  (with PRACA_USERNAME, PRACA_PASSWORD, PRACA_SERVER_ID, PRACA_CHANNEL_ID set)');
  process.exit(2);
}

let token;
async function call(method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${data.error || ''}`.trim());
  return data;
}

// The command's options from name=value words, typed as the command declares them.
function options(command) {
  return args.map((word) => {
    const [name, value] = word.split(/=(.*)/s);
    const type = command.options.find((o) => o.name === name)?.type;
    const typed = type === 'integer' || type === 'number' ? Number(value) : type === 'boolean' ? value === 'true' : value;
    return { name, value: typed };
  });
}

// The newest messages that `picks` chooses, waiting up to 5 s for the first. A bot that said it
// is thinking (a deferred answer: flag 128, no text yet) answers later in the same message, so
// its answer is awaited up to 15 s instead of printing an empty line.
const THINKING = 128;
async function answers(picks) {
  const started = Date.now();
  for (let end = started + 5000; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) {
    const { messages } = await call('GET', `/api/servers/${sid}/channels/${cid}/messages?limit=20`);
    const found = messages.filter(picks);
    const done = found.filter((m) => !(m.flags & THINKING));
    if (done.length) return done;
    if (found.length) end = started + 15000;
  }
  return [];
}

try {
  token = (await call('POST', '/api/auth/login', { username, password })).token;
  let picks;
  if (text.startsWith('/')) {
    const name = text.slice(1);
    const commands = (await call('GET', `/api/servers/${sid}/commands`)).commands.filter((c) => c.type === 'chat'); // menus are not typed
    const command = commands.find((c) => c.name === name);
    if (!command) throw new Error(`no command /${name} here; this server has: ${commands.map((c) => '/' + c.name).join(' ') || 'none'}`);
    // Answers to earlier runs of the same command are already in the channel: only new ones count.
    const { messages: before } = await call('GET', `/api/servers/${sid}/channels/${cid}/messages?limit=20`);
    const seen = new Set(before.map((m) => m.id));
    await call('POST', `/api/servers/${sid}/channels/${cid}/interactions`, { type: 'command', applicationId: command.applicationId, commandName: name, options: options(command) });
    picks = (m) => m.commandName === name && !seen.has(m.id);
  } else {
    const { message } = await call('POST', `/api/servers/${sid}/channels/${cid}/messages`, { content: text });
    picks = (m) => m.replyToId === message.id;
  }
  const found = await answers(picks);
  if (!found.length) throw new Error('no answer within 5 s: is the bot running?');
  for (const m of found) console.log(`bot: ${m.content}`);
} catch (err) {
  console.error(`say: ${err.message}`);
  process.exitCode = 1;
} finally {
  // Each run signs in: its session goes with it, instead of piling up on the account.
  if (token) await call('POST', '/api/auth/logout').catch(() => {});
}
