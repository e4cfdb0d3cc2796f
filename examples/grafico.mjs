// A bot that draws: /grafico answers with a bar chart, a PNG it makes itself, uploaded with the
// answer and shown in an embed through attachment://grafico.png.
//
//   npm install            # in this folder, once (socket.io-client)
//   PRACA_BOT_TOKEN=… node grafico.mjs
//
// The application needs the intent interactions.receive (examples/bootstrap.mjs sets it up).
// PRACA_URL defaults to http://127.0.0.1:8080.
import { io } from 'socket.io-client';
import { crc32, deflateSync } from 'node:zlib';

const base = process.env.PRACA_URL || 'http://127.0.0.1:8080';
const token = process.env.PRACA_BOT_TOKEN;
if (!token) {
  console.error('Set PRACA_BOT_TOKEN to your bot token (examples/bootstrap.mjs prints one).');
  process.exit(2);
}
const auth = { authorization: `Bearer ${token}` };

// ---- a PNG from nothing but zlib: RGB rows, each after a 0 (no filter) ----

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function png(width, height, pixel) {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixel(x, y).forEach((v, i) => { rows[y * (width * 3 + 1) + 1 + x * 3 + i] = v; });
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bits per sample
  ihdr[9] = 2; // RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

// Bars for the values, on a light background with a baseline.
function barChart(values, width = 480, height = 270) {
  const max = Math.max(...values, 1);
  const slot = Math.floor((width - 40) / values.length);
  return png(width, height, (x, y) => {
    const i = Math.floor((x - 20) / slot);
    const inBar = i >= 0 && i < values.length && (x - 20) % slot > 6 && (x - 20) % slot < slot - 6;
    const top = height - 20 - Math.round((values[i] / max) * (height - 50));
    if (y === height - 20 && x >= 16 && x < width - 16) return [60, 60, 60];
    if (inBar && y >= top && y < height - 20) return i % 2 ? [232, 197, 71] : [31, 111, 92];
    return [250, 249, 246];
  });
}

// ---- the bot ----

async function call(method, path, body) {
  const res = await fetch(base + path, { method, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${data.error || ''}`.trim());
  return data;
}

// The answer with its file: multipart, the JSON in payload_json and the PNG in files[0].
async function answerWithChart(interaction, values) {
  const form = new FormData();
  form.append('payload_json', JSON.stringify({
    type: 'message',
    data: { content: `📊 ${values.join(' · ')}`, embeds: [{ title: 'Gráfico', image: { url: 'attachment://grafico.png' } }] },
  }));
  form.append('files[0]', new Blob([barChart(values)], { type: 'image/png' }), 'grafico.png');
  const res = await fetch(`${base}/api/bot/interactions/${interaction.id}/respond`, { method: 'POST', headers: auth, body: form });
  if (!res.ok) throw new Error(`respond: ${res.status} ${(await res.json().catch(() => ({}))).error || ''}`);
}

await call('PUT', '/api/bot/commands', {
  commands: [{ name: 'grafico', description: 'Desenha um gráfico de barras', options: [
    { name: 'barras', description: 'Quantas barras (padrão 6)', type: 'integer' }] }],
}).catch((err) => {
  console.error(`Cannot start: ${err.message}`);
  process.exit(1);
});

const socket = io(base, { auth: { token }, transports: ['websocket'] });
socket.on('connect', () => console.log('connected'));
socket.on('connect_error', (err) => console.error(`connect_error: ${err.message}`));
socket.on('INTERACTION_CREATE', async (i) => {
  if (i.type !== 'command' || i.commandName !== 'grafico') return;
  const bars = Math.min(Math.max(i.options?.find((o) => o.name === 'barras')?.value ?? 6, 1), 24);
  const values = Array.from({ length: bars }, () => 1 + Math.floor(Math.random() * 99));
  try {
    await answerWithChart(i, values);
    console.log(`answered grafico with ${bars} bars`);
  } catch (err) {
    console.error(err.message);
  }
});
