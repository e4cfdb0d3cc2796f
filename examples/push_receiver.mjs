// A bot with no socket and no server of its own to keep running: praca POSTs its events to a
// URL ("Events pushed over HTTP" in docs/api.md), and a function answers each batch. `handle`
// takes a web Request and returns a Response, the shape serverless platforms call; at the end,
// a few lines serve it with node:http for trying it out. It answers "!ping" with "pong".
//
//   PRACA_SIGNING_SECRET=… PRACA_BOT_TOKEN=… PORT=8788 node push_receiver.mjs
//
// Then set the application's events endpoint URL to this server (developer portal, tab
// "Eventos", or PUT /api/applications/:id/events-config). praca calls loopback or private
// addresses only when started with --allow-private-endpoints (`make run` does).
//
// A batch is retried until it gets a 2xx, so the same event can come twice (an answer lost on the
// way back): events are taken once by their position, kept here in a file (on a platform, in
// its key-value store).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';

const secret = process.env.PRACA_SIGNING_SECRET;
const token = process.env.PRACA_BOT_TOKEN;
const base = process.env.PRACA_URL || 'http://127.0.0.1:8080';
const stateFile = process.env.PUSH_STATE_FILE || 'push-state.json';
if (!secret || !token) {
  console.error('Set PRACA_SIGNING_SECRET and PRACA_BOT_TOKEN (the portal shows both once).');
  process.exit(2);
}

function verifyPraca(headers, rawBody) {
  const ts = headers.get('x-signature-timestamp') || '';
  const sig = headers.get('x-signature-256') || '';
  if (!/^\d+$/.test(ts) || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const expected = 'sha256=' + crypto.createHmac('sha256', secret).update(`${ts}.${rawBody}`).digest('hex');
  return sig.length === expected.length && crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
}

const lastSeen = () => BigInt(fs.existsSync(stateFile) ? JSON.parse(fs.readFileSync(stateFile, 'utf8')).position : 0);
const remember = (position) => fs.writeFileSync(stateFile, JSON.stringify({ position }));

async function onEvent(type, data) {
  if (type === 'EVENTS_GAP') console.log(`missed events between ${data.after} and ${data.oldestPosition}`);
  if (type !== 'MESSAGE_CREATE' || data.applicationId || data.content.trim() !== '!ping') return;
  const res = await fetch(`${base}/api/bot/servers/${data.serverId}/channels/${data.channelId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'pong', replyToId: data.id, nonce: `pong-${data.id}`, enforceNonce: true }),
  });
  if (!res.ok) throw new Error(`send: ${res.status} ${await res.text()}`);
}

export async function handle(request) {
  const raw = await request.text();
  if (request.method !== 'POST' || !verifyPraca(request.headers, raw)) return new Response('bad signature', { status: 401 });
  const batch = JSON.parse(raw);
  let seen = lastSeen();
  for (const { position, type, data } of batch.events) {
    if (BigInt(position) <= seen) continue; // delivered before: its answer did not reach praca
    console.log(`event ${position} ${type}`);
    await onEvent(type, data); // a failure answers 500: praca sends the batch again
    seen = BigInt(position);
    remember(position);
  }
  return new Response(null, { status: 204 });
}

// The node:http adapter; a platform calls handle() itself.
const port = Number(process.env.PORT || 8788);
const server = http.createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const request = new Request(`http://localhost${req.url}`, { method: req.method, headers: req.headers, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
  const answer = await handle(request).catch((e) => { console.error(e.message); return new Response(null, { status: 500 }); });
  res.writeHead(answer.status).end(Buffer.from(await answer.arrayBuffer()));
});
server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}/`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
