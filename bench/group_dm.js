// A send in a group conversation as the group grows: in a pair's conversation and in groups of
// 4 and 10 people, every one of them with a page's connection open, N sends each, one at a time.
// For each: the latency of the send (p50, p99), the time until the last of the others has it,
// and the server's CPU per send (all its threads' run time from /proc/PID/task/*/schedstat).
//
//   N=300 PRACA_BIN=build/praca node bench/group_dm.js
'use strict';
const { cpuNs, pct } = require('./measure');
const { startServer, api, serverWithMembers, gatewayConnect } = require('../tests/e2e/helpers');

const N = Number(process.env.N || 300);
const SIZES = (process.env.SIZES || '2,4,10').split(',').map(Number);



async function main() {
  const srv = await startServer({ single: true, args: ['--rate-limit-scale', '100000', '--access-log=0'] });
  const sockets = [];
  try {
    const { owner, members } = await serverWithMembers(srv.url, Math.max(...SIZES) - 1);
    const pid = srv.proc.pid;
    for (const size of SIZES) {
      const others = members.slice(0, size - 1);
      const body = size === 2 ? { userId: others[0].user.id } : { userIds: others.map((m) => m.user.id) };
      const dm = await api(srv.url, 'POST', '/api/users/@me/dms', { token: owner.token, body });
      if (dm.status !== 200) throw new Error(dm.text);
      const cid = dm.body.channel.id;
      const pages = [];
      for (const m of others) {
        const t = await api(srv.url, 'POST', '/api/gateway/ticket', { token: m.token });
        pages.push(await gatewayConnect(srv.url, { auth: { ticket: t.body.ticket }, transports: ['websocket'] }, sockets));
      }
      const sent = [], reached = [];
      const before = cpuNs(pid);
      for (let i = 0; i < N; i++) {
        const all = Promise.all(pages.map((s) => new Promise((resolve) => {
          s.on('MESSAGE_CREATE', function on(m) { if (m.channelId === cid && m.content === `n${i}`) { s.off('MESSAGE_CREATE', on); resolve(); } });
        })));
        const t0 = process.hrtime.bigint();
        const r = await api(srv.url, 'POST', `/api/dms/${cid}/messages`, { token: owner.token, body: { content: `n${i}` } });
        if (r.status !== 200) throw new Error(r.text);
        sent.push(Number(process.hrtime.bigint() - t0) / 1e6);
        await all;
        reached.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      const cpu = (cpuNs(pid) - before) / N / 1000;
      console.log(JSON.stringify({ people: size, sends: N, send_p50_ms: +pct(sent, 0.5).toFixed(2), send_p99_ms: +pct(sent, 0.99).toFixed(2),
                                   all_have_it_p50_ms: +pct(reached, 0.5).toFixed(2), all_have_it_p99_ms: +pct(reached, 0.99).toFixed(2), cpu_us_per_send: +cpu.toFixed(1) }));
      for (const s of pages) s.disconnect();
    }
  } finally {
    for (const s of sockets) s.disconnect();
    await srv.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
