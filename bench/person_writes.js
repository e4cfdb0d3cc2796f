// A person's edits, pins and reactions: N of each one at a time (latency p50, p99), then N more
// with C in flight (server CPU per write, all its threads' run time from
// /proc/PID/task/*/schedstat). Another member's page and a bot with messages.read are connected,
// so each edit reaches a page and a bot. Run it on two builds to compare lanes:
//
//   N=500 C=10 PRACA_BIN=build/praca node bench/person_writes.js
'use strict';
const { cpuNs, pct } = require('./measure');
const { startServer, api, serverWithMembers, gatewayConnect, appWithBot, install } = require('../tests/e2e/helpers');
const { P } = require('../tests/e2e/permissions');

const N = Number(process.env.N || 500);
const C = Number(process.env.C || 10);



async function main() {
  const srv = await startServer({ single: true, args: ['--rate-limit-scale', '100000', '--access-log=0'] });
  const sockets = [];
  try {
    const { owner, sid, server, members: [other] } = await serverWithMembers(srv.url, 1);
    const cid = server.channels[0].id;
    const info = await appWithBot(srv.url, owner, { intents: ['messages.read'] });
    await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
    await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
    const t = await api(srv.url, 'POST', '/api/gateway/ticket', { token: other.token });
    await gatewayConnect(srv.url, { auth: { ticket: t.body.ticket }, transports: ['websocket'] }, sockets);
    const ids = [];
    for (let i = 0; i < C; i++) {
      const r = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: owner.token, body: { content: `m${i}` } });
      ids.push(r.body.message.id);
    }
    const base = `/api/servers/${sid}/channels/${cid}/messages`;
    const kinds = {
      edit: (i) => ['PATCH', `${base}/${ids[i % C]}`, { content: `editada ${i}` }],
      pin: (i) => ['POST', `${base}/${ids[i % C]}/pin`, {}],
      react: (i) => ['POST', `${base}/${ids[i % C]}/react`, { emoji: '👍' }],
    };
    const pid = srv.proc.pid;
    for (const [kind, make] of Object.entries(kinds)) {
      const one = async (i) => {
        const [method, path, body] = make(i);
        const r = await api(srv.url, method, path, { token: owner.token, body });
        if (r.status !== 200) throw new Error(`${kind}: ${r.status} ${r.text}`);
      };
      const took = [];
      for (let i = 0; i < N; i++) {
        const t0 = process.hrtime.bigint();
        await one(i);
        took.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      const before = cpuNs(pid);
      let next = 0;
      await Promise.all(Array.from({ length: C }, async () => { while (next < N) await one(next++); }));
      const cpu = (cpuNs(pid) - before) / N / 1000;
      console.log(JSON.stringify({ kind, writes: N, p50_ms: +pct(took, 0.5).toFixed(2), p99_ms: +pct(took, 0.99).toFixed(2),
                                   in_flight: C, cpu_us_per_write: +cpu.toFixed(1) }));
    }
  } finally {
    for (const s of sockets) s.disconnect();
    await srv.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
