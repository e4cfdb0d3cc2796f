// Interactions at your own URL instead of the gateway ("Endpoint-URL mode" in docs/api.md):
// praca POSTs each interaction, signed with the application's signing secret, and this
// server's answer is the interaction's answer. It checks every signature and timestamp.
//
//   PRACA_SIGNING_SECRET=… PORT=8787 node endpoint.mjs
//
// Then set the application's interactions endpoint URL to this server (developer portal,
// "Interações", or PUT /api/applications/:id/interactions-config) and click "Testar".
// praca only calls loopback or private addresses when started with --allow-private-endpoints
// (`make run` does); in production the URL is public https.
import crypto from 'node:crypto';
import http from 'node:http';

const secret = process.env.PRACA_SIGNING_SECRET;
const port = Number(process.env.PORT || 8787);
if (!secret) {
  console.error('Set PRACA_SIGNING_SECRET to the signing secret shown when you generated it.');
  process.exit(2);
}

// rawBody: the body exactly as received. Constant-time compare; at most 5 minutes of clock skew.
function verifyPraca(headers, rawBody, key) {
  const ts = headers['x-signature-timestamp'] || '';
  const sig = headers['x-signature-256'] || '';
  if (!/^\d+$/.test(ts) || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const expected = 'sha256=' + crypto.createHmac('sha256', key).update(`${ts}.${rawBody}`).digest('hex');
  return sig.length === expected.length && crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
}

function answer(i) {
  if (i.type === 'ping') return { type: 'pong' };
  if (i.type === 'command' && i.commandName === 'dado') {
    const sides = i.options?.find((o) => o.name === 'lados')?.value ?? 6;
    return { type: 'message', data: { content: `🎲 d${sides}: ${1 + crypto.randomInt(sides)} (via endpoint)` } };
  }
  return { type: 'message', data: { content: 'Não conheço essa interação.', ephemeral: true } };
}

const server = http.createServer((req, res) => {
  const chunks = [];
  let size = 0;
  req.on('data', (c) => {
    size += c.length;
    if (size > 1 << 20) req.destroy(); // an interaction is far smaller
    else chunks.push(c);
  });
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    if (req.method !== 'POST' || !verifyPraca(req.headers, raw, secret)) {
      console.log('refused: bad or missing signature');
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad signature"}');
      return;
    }
    const interaction = JSON.parse(raw);
    console.log(`interaction ${interaction.type} ${interaction.commandName || ''}`.trim());
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(interaction)));
  });
});
server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}/`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
