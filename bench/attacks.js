// What an anonymous (or barely authenticated) client can make a release praca hold: each attack
// of the hardening review runs for a few seconds against a fresh server while its resident
// memory and open descriptors are sampled from /proc; prints one table row per attack.
//
//   node bench/attacks.js [seconds per attack, default 10]
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const WebSocket = require('ws');

const BIN = path.resolve(process.env.PRACA_BIN || 'build/praca');
const SECONDS = Number(process.argv[2] || 10);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function start(args = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'praca-attack-'));
  const proc = spawn(BIN, ['serve', '--port', '0', '--data', path.join(dir, 'p.db'), '--access-log=0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => { out += d; const m = out.match(/listening on (http:\/\/\S+)/); if (m) resolve(m[1]); });
    proc.on('exit', (c) => reject(new Error('exited ' + c)));
  });
  return { proc, url, port: Number(new URL(url).port), dir };
}

function sample(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number((status.match(new RegExp(`${k}:\\s+(\\d+)`)) || [])[1] || 0);
  return { rss: kb('VmRSS') / 1024, fds: fs.readdirSync(`/proc/${pid}/fd`).length };
}

// Runs attack(server, signal) for SECONDS while sampling; returns the figures.
async function measure(name, attack, args) {
  const s = await start(args);
  const base = sample(s.proc.pid);
  let peak = { ...base };
  const timer = setInterval(() => {
    const now = sample(s.proc.pid);
    peak = { rss: Math.max(peak.rss, now.rss), fds: Math.max(peak.fds, now.fds) };
  }, 100);
  const ctl = { stop: false, note: '' };
  const running = attack(s, ctl).catch((e) => { ctl.note = 'attack error: ' + e.message; });
  await sleep(SECONDS * 1000);
  ctl.stop = true;
  await Promise.race([running, sleep(3000)]);
  clearInterval(timer);
  await sleep(1500);
  const after = sample(s.proc.pid);
  s.proc.kill('SIGTERM');
  await new Promise((r) => s.proc.on('exit', r));
  return { name, base, peak, after, note: ctl.note };
}

function rawUpgrade(port) {
  const sock = net.connect(port, '127.0.0.1');
  sock.on('error', () => {});
  sock.write('GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
  return sock;
}

function frame(op, payload) {
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x80 | op, 0x80 | len]) : len < 65536
    ? Buffer.from([0x80 | op, 0x80 | 126, len >> 8, len & 255])
    : Buffer.concat([Buffer.from([0x80 | op, 0x80 | 127, 0, 0, 0, 0]), (() => { const b = Buffer.alloc(4); b.writeUInt32BE(len); return b; })()]);
  return Buffer.concat([head, Buffer.alloc(4), payload]); // zero mask: payload as is
}

const attacks = [
  ['1. WebSocket pings, never reading (no token)', async (s, ctl) => {
    const socks = Array.from({ length: 20 }, () => { const k = rawUpgrade(s.port); k.pause(); return k; });
    const ping = frame(9, Buffer.alloc(125, 120));
    while (!ctl.stop) {
      for (const k of socks) if (!k.destroyed && k.writableLength < 4 << 20) k.write(Buffer.concat(Array(64).fill(ping)));
      await sleep(5);
    }
    ctl.note = `${socks.filter((k) => k.destroyed).length}/20 closed by the server`;
    socks.forEach((k) => k.destroy());
  }],
  ['3. 40 bodies declared at 20 MB, trickling (no token)', async (s, ctl) => {
    const socks = [];
    for (let i = 0; i < 40; i++) {
      const k = net.connect(s.port, '127.0.0.1');
      k.on('error', () => {});
      k.write('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20000000\r\n\r\n');
      socks.push(k);
    }
    const chunk = Buffer.alloc(64 * 1024, 32);
    while (!ctl.stop) { for (const k of socks) if (!k.destroyed) k.write(chunk); await sleep(50); }
    ctl.note = `${socks.filter((k) => k.destroyed).length}/40 refused`;
    socks.forEach((k) => k.destroy());
  }],
  ['4. login flood, 32 at a time (new names)', async (s, ctl) => {
    let n = 0;
    const one = async () => {
      while (!ctl.stop) {
        await fetch(s.url + '/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: `nome${n++}`, password: 'x'.repeat(10) }) }).then((r) => r.text()).catch(() => {});
      }
    };
    await Promise.all(Array.from({ length: 32 }, one));
  }, ['--logins-per-address', '0']],
  ['7. 3,000 idle connections from one address', async (s, ctl) => {
    const socks = [];
    for (let i = 0; i < 3000 && !ctl.stop; i++) {
      const k = net.connect(s.port, '127.0.0.1');
      k.on('error', () => {});
      socks.push(k);
      if (i % 200 === 0) await sleep(10);
    }
    while (!ctl.stop) await sleep(100);
    socks.forEach((k) => k.destroy());
  }, ['--max-connections', '1000']],
  ['8. 1 MB attachments before joining a namespace (60 sockets)', async (s, ctl) => {
    const socks = Array.from({ length: 60 }, () => rawUpgrade(s.port));
    await sleep(300);
    const head = frame(1, Buffer.from('451-["x",{"_placeholder":true,"num":0}]'));
    const body = frame(2, Buffer.alloc(1000 * 1000, 1));
    while (!ctl.stop) {
      for (const k of socks) if (!k.destroyed && k.writableLength < 8 << 20) k.write(Buffer.concat([head, body]));
      await sleep(20);
    }
    ctl.note = `${socks.filter((k) => k.destroyed).length}/60 closed by the server`;
    socks.forEach((k) => k.destroy());
  }],
  ['10. Engine.IO handshakes (polling sessions), as fast as possible', async (s, ctl) => {
    const one = async () => {
      while (!ctl.stop) await fetch(s.url + '/socket.io/?EIO=4&transport=polling').then((r) => r.text()).catch(() => {});
    };
    await Promise.all(Array.from({ length: 16 }, one));
  }, ['--max-connections', '2000']],
];

(async () => {
  const rows = [];
  for (const [name, attack, args] of attacks) {
    const r = await measure(name, attack, args);
    rows.push(r);
    console.error(`${r.name}: RSS ${r.base.rss.toFixed(0)} → peak ${r.peak.rss.toFixed(0)} → after ${r.after.rss.toFixed(0)} MB; fds peak ${r.peak.fds}, after ${r.after.fds} ${r.note}`);
  }
  console.log(`| attack (${SECONDS} s each, release build) | RSS at start | peak RSS | RSS 1.5 s after | peak fds | fds after | |`);
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.base.rss.toFixed(0)} MB | ${r.peak.rss.toFixed(0)} MB | ${r.after.rss.toFixed(0)} MB | ${r.peak.fds} | ${r.after.fds} | ${r.note} |`);
  }
})();
