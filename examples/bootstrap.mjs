// From a person's account to a bot installed in a new server of theirs, in one run.
//
//   PRACA_USERNAME=ana PRACA_PASSWORD='uma senha longa' node bootstrap.mjs [--register] > bot.env
//   set -a; . ./bot.env; set +a      # then node bot.mjs finds PRACA_BOT_TOKEN
//
// Signs in (or, with --register, creates the account), creates an application with its bot,
// turns on the intents messages.read and interactions.receive, registers a redirect URI,
// creates a server and installs the bot there through the consent flow, exactly as the consent
// page does it for a person who clicks "Autorizar". Run again, it reuses the application and
// the server it made (the bot gets a new token, since the old one was shown only once).
// Prints shell assignments on stdout (PRACA_URL, PRACA_BOT_TOKEN, …) and what it did, with the
// consent link, on stderr. PRACA_URL defaults to http://127.0.0.1:8080; point it at another
// praca with PRACA_URL=https://praca.example.

const base = process.env.PRACA_URL || 'http://127.0.0.1:8080';
const username = process.env.PRACA_USERNAME;
const password = process.env.PRACA_PASSWORD;
const appName = process.env.PRACA_APP_NAME || 'Meu primeiro bot';
// Where the browser goes after someone installs the bot: back to the chat, unless you have a page.
const redirectUri = process.env.PRACA_REDIRECT_URI || `${base}/app`;
// VER_CANAL | ENVIAR_MENSAGENS | ADICIONAR_REACOES | USAR_COMANDOS (docs/api.md, "Permissions").
const permissions = (1 << 8) | (1 << 9) | (1 << 12) | (1 << 16);

if (!username || !password) {
  console.error('Set PRACA_USERNAME and PRACA_PASSWORD (add --register to create the account).');
  process.exit(2);
}

async function call(method, path, body, token) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch((err) => {
    const why = err.cause?.code || err.cause?.errors?.[0]?.code || err.cause?.message || err.message;
    throw new Error(`cannot reach ${base} (${why}); is praca running there? Set PRACA_URL to its address`);
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(`${method} ${path}: ${res.status} ${data.error || ''}`.trim()), { data });
  return data;
}

async function signIn() {
  if (process.argv.includes('--register')) {
    return (await call('POST', '/api/auth/register', { username, password })).token;
  }
  const code = process.env.PRACA_CODE; // the six digits of the authenticator, with two-factor on
  try {
    return (await call('POST', '/api/auth/login', { username, password, ...(code && { code }) })).token;
  } catch (err) {
    if (err.data?.mfaRequired && !code) throw new Error('this account has two-factor on: set PRACA_CODE to the current code');
    throw err;
  }
}

try {
  const token = await signIn();
  // A second run takes what the first made: the application by its name, the server by its.
  const { applications } = await call('GET', '/api/applications', undefined, token);
  const existing = applications.find((a) => a.name === appName);
  const { application } = existing ? { application: existing }
    : await call('POST', '/api/applications', { name: appName, description: 'Responde !ping e /dado.' }, token);
  const bot = application.hasBot
    ? { ...(await call('POST', `/api/applications/${application.id}/bot/token/rotate`, undefined, token)), botUsername: application.botUsername }
    : await call('POST', `/api/applications/${application.id}/bot`, undefined, token);
  await call('PUT', `/api/applications/${application.id}/intents`, { intents: ['messages.read', 'interactions.receive'] }, token);
  const redirectUris = [...new Set([...(application.redirectUris || []), redirectUri])].slice(-10);
  await call('PUT', `/api/applications/${application.id}/oauth/redirect-uris`, { redirectUris }, token);
  const serverName = `Servidor de ${username}`;
  const { user: me } = await call('GET', '/api/users/@me', undefined, token);
  const { servers } = await call('GET', '/api/servers', undefined, token);
  const mine = servers.find((s) => s.name === serverName && s.ownerId === me.id);
  const { server, channels } = mine ? await call('GET', `/api/servers/${mine.id}`, undefined, token)
    : await call('POST', '/api/servers', { name: serverName }, token);

  const query = new URLSearchParams({ client_id: application.clientId, redirect_uri: redirectUri, permissions: String(permissions) });
  const consent = `${base}/oauth2/authorize?${query}`;
  const start = await call('GET', `/api/oauth2/authorize/start?${query}`, undefined, token);
  await call('POST', `/api/oauth2/authorize/${start.authorizeSessionId}/complete`, { serverId: server.id }, token);

  const text = channels.find((c) => c.type === 'text');
  console.log(`PRACA_URL=${base}`);
  console.log(`PRACA_BOT_TOKEN=${bot.token}`);
  console.log(`PRACA_APP_ID=${application.id}`);
  console.log(`PRACA_SERVER_ID=${server.id}`);
  console.log(`PRACA_CHANNEL_ID=${text.id}`);
  console.error(`${existing ? 'Reused' : 'Created'} application "${application.name}" (${application.id}) with bot @${bot.botUsername}.`);
  console.error(`Installed in "${server.name}" (${mine ? 'again, ' : ''}through the consent link):\n  ${consent}`);
  console.error('Send that link to the admin of any other server to install the bot there too.');
  console.error(`The bot token was printed once; keep it secret. Channel #${text.name} is ${text.id}.`);
} catch (err) {
  console.error(`bootstrap: ${err.message}`);
  process.exit(1);
}
