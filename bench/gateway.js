// Gateway benchmarks against a running praca:
//   connect: N WebSocket connections (one bot token); reports praca's RSS and CPU per connection.
//   fanout:  B bots connected, messages posted at R per second for S seconds; reports delivery
//            latency from the POST (p50/p99), deliveries per second, losses, CPU per delivery.
//   signal:  P pairs of people in one voice channel bounce channel_voice:signal back and forth
//            for S seconds; reports relays per second, round-trip latency, CPU per relay.
// Usage: node bench/gateway.js URL PID connect N
//        node bench/gateway.js URL PID fanout BOTS RATE SECONDS
//        node bench/gateway.js URL PID signal PAIRS SECONDS
// POST_URL (default URL) is where the setup and the posts go: another node of several, so that
// PID's CPU is its part of each delivery alone.
// Raw Engine.IO/Socket.IO over `ws` keeps the load generator light.
'use strict';
const fs = require('node:fs');
const WebSocket = require('ws');
const { api, register, appWithBot, install } = require('../tests/e2e/helpers');

const [base, pidText, mode, ...rest] = process.argv.slice(2);
const pid = Number(pidText);
const postBase = process.env.POST_URL || base;
const wsUrl = base.replace(/^http/, 'ws') + '/socket.io/?EIO=4&transport=websocket';

function rssKiB() {
  const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
  return Number(m[1]);
}
function cpuTicks() {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]);
}
const TICK_US = 1e6 / 100;

// One Socket.IO connection speaking the protocol by hand: open → 40{auth} → 40{sid}; pongs.
function connect(token, onEvent) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
    ws.on('message', (data) => {
      const s = data.toString();
      if (s[0] === '0') ws.send(`40${JSON.stringify({ token })}`);
      else if (s === '2') ws.send('3');
      else if (s.startsWith('40')) resolve(ws);
      else if (s.startsWith('44')) reject(new Error(s));
      else if ((s.startsWith('42') || s.startsWith('43')) && onEvent) onEvent(s, ws);
    });
    ws.on('error', reject);
  });
}

async function inBatches(n, size, fn) {
  const out = [];
  for (let i = 0; i < n; i += size) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, k) => fn(i + k)))));
  }
  return out;
}

async function setupServer(bots) {
  const owner = await register(postBase, `bench_${Date.now() % 100000}`);
  const created = await api(postBase, 'POST', '/api/servers', { token: owner.token, body: { name: 'Bench' } });
  const sid = created.body.server.id, cid = created.body.channels[0].id;
  const infos = await inBatches(bots, 20, async (i) => {
    const info = await appWithBot(postBase, owner, { name: `bench ${i}`, intents: ['messages.read'] });
    const { complete } = await install(postBase, owner, info, sid, { permissions: 768 });
    if (complete.status !== 200) throw new Error(complete.text);
    return info;
  });
  return { owner, sid, cid, infos };
}

async function connectBench(n) {
  const { infos } = await setupServer(1);
  const rss0 = rssKiB(), cpu0 = cpuTicks(), t0 = Date.now();
  const sockets = await inBatches(n, 200, () => connect(infos[0].botToken));
  const ms = Date.now() - t0, cpu = (cpuTicks() - cpu0) * TICK_US;
  await new Promise((r) => setTimeout(r, 1000));
  const rss = rssKiB();
  console.log(`connections: ${sockets.length} in ${ms} ms; praca RSS ${rss0} → ${rss} KiB ` +
    `(${(((rss - rss0) * 1024) / n / 1024).toFixed(2)} KiB per connection); ` +
    `CPU ${(cpu / n).toFixed(1)} µs per connect`);
  const idle0 = cpuTicks();
  await new Promise((r) => setTimeout(r, 5000));
  console.log(`idle: praca CPU ${((cpuTicks() - idle0) * TICK_US / 5 / 1000).toFixed(1)} ms/s with ${n} connections`);
  for (const s of sockets) s.terminate();
}

async function fanoutBench(bots, rate, seconds) {
  const { owner, sid, cid, infos } = await setupServer(bots);
  const latencies = [];
  let received = 0;
  const onEvent = (s) => {
    const m = s.match(/"content":"t(\d+)"/);
    if (m) { latencies.push(Date.now() - Number(m[1])); received++; }
  };
  const sockets = await inBatches(bots, 100, (i) => connect(infos[i].botToken, onEvent));
  const url = `/api/servers/${sid}/channels/${cid}/messages`;
  const total = rate * seconds;
  const cpu0 = cpuTicks(), t0 = Date.now();
  let sent = 0;
  await new Promise((resolve) => {
    const timer = setInterval(() => {
      if (sent >= total) { clearInterval(timer); resolve(); return; }
      sent++;
      api(postBase, 'POST', url, { token: owner.token, body: { content: `t${Date.now()}` } });
    }, 1000 / rate);
  });
  await new Promise((r) => setTimeout(r, 2000));
  const cpu = (cpuTicks() - cpu0) * TICK_US;
  const elapsed = (Date.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const p = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  const expected = total * bots;
  console.log(`fan-out: ${bots} bots, ${rate} messages/s for ${seconds} s: ${received}/${expected} delivered ` +
    `(${expected - received} lost); p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${latencies.at(-1)} ms; ` +
    `${(received / elapsed).toFixed(0)} deliveries/s; praca CPU ${(cpu / received).toFixed(2)} µs per delivery ` +
    `(including the ${total} sends)`);
  for (const s of sockets) s.terminate();
}

async function signalBench(pairs, seconds) {
  const owner = await register(base, `bench_${Date.now() % 100000}`);
  const created = await api(base, 'POST', '/api/servers', { token: owner.token, body: { name: 'Bench' } });
  const sid = created.body.server.id;
  const voice = await api(base, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'Voz', type: 'voice' } });
  const vcid = voice.body.channel.id;
  const invite = await api(base, 'POST', `/api/servers/${sid}/invites`, { token: owner.token, body: {} });
  const people = await inBatches(2 * pairs, 20, async () => {
    const m = await register(base);
    await api(base, 'POST', `/api/invites/${invite.body.code}/join`, { token: m.token });
    return m;
  });
  let running = true, relays = 0;
  const rtts = [];
  const signal = (ws, to, t) => ws.send(`42${JSON.stringify(['channel_voice:signal', {
    channelId: vcid, toUserId: to, data: { type: 'candidate', t, candidate: 'candidate:1 1 udp 2122260223 192.0.2.1 54321 typ host generation 0' } }])}`);
  const sockets = await inBatches(2 * pairs, 50, async (i) => {
    const me = people[i], peer = people[i ^ 1];
    const ws = await connect(me.token, (s, sock) => {
      if (s.startsWith('43')) { sock.joined(); return; }
      if (!s.includes('channel_voice:signal')) return;
      relays++;
      const t = JSON.parse(s.slice(2))[1].data.t;
      if (i % 2 === 0) rtts.push(Date.now() - t); // the initiator measures the round trip
      if (running) signal(sock, peer.user.id, i % 2 === 0 ? Date.now() : t);
    });
    await new Promise((resolve) => { ws.joined = resolve; ws.send(`420${JSON.stringify(['voice:join', { channelId: vcid }])}`); });
    return ws;
  });
  await new Promise((r) => setTimeout(r, 2000)); // the join announcements settle
  const cpu0 = cpuTicks(), t0 = Date.now();
  relays = 0;
  for (let i = 0; i < sockets.length; i += 2) signal(sockets[i], people[i + 1].user.id, Date.now());
  await new Promise((r) => setTimeout(r, seconds * 1000));
  running = false;
  const cpu = (cpuTicks() - cpu0) * TICK_US, elapsed = (Date.now() - t0) / 1000, n = relays;
  await new Promise((r) => setTimeout(r, 500));
  rtts.sort((a, b) => a - b);
  const p = (q) => rtts[Math.min(rtts.length - 1, Math.floor(q * rtts.length))];
  console.log(`signal relay: ${pairs} pairs in one voice channel for ${seconds} s: ${n} relays ` +
    `(${(n / elapsed).toFixed(0)}/s); round trip p50 ${p(0.5)} ms, p99 ${p(0.99)} ms; ` +
    `praca CPU ${(cpu / n).toFixed(2)} µs per relay`);
  for (const s of sockets) s.terminate();
}

(async () => {
  if (mode === 'connect') await connectBench(Number(rest[0] || 10000));
  else if (mode === 'signal') await signalBench(Number(rest[0] || 50), Number(rest[1] || 10));
  else await fanoutBench(Number(rest[0] || 1000), Number(rest[1] || 20), Number(rest[2] || 10));
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
