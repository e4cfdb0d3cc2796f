// What one account can take from everyone through files and webhooks, against a fresh release
// server each (compare two builds with PRACA_BIN):
//   bombs   the account sends its limit of image bombs (4 messages of 10 interlaced 16-bit PNGs
//           of 10,000 × 10,000, 0.78 MB each, at once) while a bystander reads a channel's
//           history every 20 ms: the server's peak memory (VmHWM), the bystander's p50/p99,
//           and how long the bombs took;
//   flood   the same with images within every budget (8,000 × 8,000 gray PNGs, 64 MP each, 62 kB):
//           what legitimate large images cost a bystander;
//   stall   the account opens 23 uploads that declare 251 MB each, sends their first bytes and
//           pauses; then a bystander uploads 100 MB: its status and time;
//   slack   a webhook post of 100 KB and of 0.9 MB of '<' with ?format=slack: the server's CPU
//           (utime + stime from /proc) for each.
//
//   node bench/abuse_files.js [bombs|flood|stall|slack ...]    (all four without arguments)
// PRACA_BIN picks the binary (build/praca); WORKERS the request workers (16); SEED_DIR keeps the
// generated bomb between runs.
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { startServer, api, serverWithMembers, upload, pngFile, pngPasses } = require('../tests/e2e/helpers');

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1); };
const ARGS = ['--rate-limit-scale', '1000', '--access-log=0', '--workers', process.env.WORKERS || '16'];

// The finding's bomb: 10,000 × 10,000 RGBA, 16 bits a sample, Adam7, every pixel 0.
function bomb() {
  const dir = process.env.SEED_DIR || os.tmpdir();
  const file = path.join(dir, 'praca-bomb-10000-rgba16-adam7.png');
  if (fs.existsSync(file)) return fs.readFileSync(file);
  const W = 10000, H = 10000, BPP = 8;
  const deflate = zlib.createDeflate({ level: 9 });
  const parts = [];
  deflate.on('data', (d) => parts.push(d));
  const done = new Promise((r) => deflate.on('end', r));
  const zeros = Buffer.alloc(1 + W * BPP);
  for (const [w, h] of pngPasses(W, H, true)) {
    for (let y = 0; y < h; y++) deflate.write(zeros.subarray(0, 1 + w * BPP));
  }
  deflate.end();
  return done.then(() => {
    const png = pngFile(W, H, { depth: 16, type: 6, interlaced: true }, Buffer.concat(parts));
    fs.writeFileSync(file, png);
    return png;
  });
}

function cpuMs(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 1000 / 100; // utime + stime, in ticks of 10 ms
}

const hwmMb = (pid) => Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/)[1]) / 1024;

async function bystanderWhile(srv, w, cid, work) {
  const reads = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = process.hrtime.bigint();
      await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${cid}/messages?limit=50`, { token: w.owner.token });
      reads.push(Number(process.hrtime.bigint() - t) / 1e6);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const t0 = Date.now();
  const result = await work();
  const ms = Date.now() - t0;
  running = false;
  await loop;
  return { result, ms, reads };
}

async function bombs(png, label = 'bombs') {
  png = png || (await bomb());
  const srv = await startServer({ single: true, args: ARGS });
  try {
    const w = await serverWithMembers(srv.url, 1);
    const cid = w.server.channels[0].id;
    const before = hwmMb(srv.proc.pid);
    const files = Array.from({ length: 10 }, (_, i) => ({ name: `b${i}.png`, data: png, type: 'image/png' }));
    const { result, ms, reads } = await bystanderWhile(srv, w, cid, () => Promise.all(Array.from({ length: 4 }, () =>
      upload(srv.url, 'POST', `/api/servers/${w.sid}/channels/${cid}/messages`, w.members[0].token, {}, files))));
    const a = result[0].body && result[0].body.message ? result[0].body.message.attachments[0] : null;
    console.log(JSON.stringify({ case: label, bombBytes: png.length, statuses: result.map((r) => r.status), thumbnail: a && a.thumbnailUrl !== null, seconds: +(ms / 1000).toFixed(1), hwmMbBefore: Math.round(before), hwmMbAfter: Math.round(hwmMb(srv.proc.pid)), bystanderReads: reads.length, bystanderP50Ms: pct(reads, 50), bystanderP99Ms: pct(reads, 99) }));
  } finally {
    await srv.stop();
  }
}

async function stall() {
  const srv = await startServer({ single: true, args: [...ARGS, '--file-max-mb', '300', '--files-per-message', '1'] });
  const socks = [];
  try {
    const w = await serverWithMembers(srv.url, 1);
    const cid = w.server.channels[0].id;
    const url = `/api/servers/${w.sid}/channels/${cid}/messages`;
    const boundary = 'b0';
    for (let i = 0; i < 23; i++) {
      await new Promise((resolve) => {
        const s = net.connect(srv.port, '127.0.0.1', () => {
          s.write(`POST ${url} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${w.members[0].token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${251 * 1000 * 1000}\r\n\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="files[0]"; filename="x"\r\n\r\n`);
          setTimeout(resolve, 20);
        });
        s.on('error', () => {});
        socks.push(s);
      });
    }
    await new Promise((r) => setTimeout(r, 500));
    const t = Date.now();
    const r = await upload(srv.url, 'POST', url, w.owner.token, {}, [{ name: 'a.bin', data: Buffer.alloc(100 * 1000 * 1000, 1) }]);
    console.log(JSON.stringify({ case: 'stall', idleUploads: socks.length, declaredMbEach: 251, bystanderStatus: r.status, bystanderMs: Date.now() - t }));
  } finally {
    for (const s of socks) s.destroy();
    await srv.stop();
  }
}

async function slack() {
  const srv = await startServer({ single: true, args: ARGS });
  try {
    const w = await serverWithMembers(srv.url, 0);
    const cid = w.server.channels[0].id;
    const hook = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${cid}/webhooks`, { token: w.owner.token, body: { name: 'Alertas' } });
    if (hook.status !== 201) throw new Error(hook.text);
    const url = `${srv.url}/api/webhooks/${hook.body.webhook.id}/${hook.body.token}?format=slack`;
    for (const size of [100 * 1000, 900 * 1000]) {
      const body = JSON.stringify({ text: '<'.repeat(size) });
      const c0 = cpuMs(srv.proc.pid);
      const t = Date.now();
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await r.text();
      console.log(JSON.stringify({ case: 'slack', bytes: size, status: r.status, serverCpuMs: cpuMs(srv.proc.pid) - c0, wallMs: Date.now() - t }));
      await new Promise((res) => setTimeout(res, 2500)); // the webhook's own limit: 5 per 2 s
    }
  } finally {
    await srv.stop();
  }
}

// 8,000 × 8,000 gray, not interlaced: within every budget, a second or so of libvips each.
function flood() {
  const raw = pngPasses(8000, 8000, false).reduce((n, [w, h]) => n + h * (1 + w), 0);
  return bombs(pngFile(8000, 8000, {}, zlib.deflateSync(Buffer.alloc(raw), { level: 9 })), 'flood');
}

const cases = { bombs: () => bombs(), flood, stall, slack };
(async () => {
  for (const name of process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(cases)) await cases[name]();
})().catch((e) => { console.error(e); process.exit(1); });
