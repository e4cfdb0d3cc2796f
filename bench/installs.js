// What one more bot's install costs as a server's bots grow: BOTS bots installed (default 3,000,
// through the API), then 20 more, each timed, with the server's CPU (utime + stime from /proc)
// per install; the same at 10 bots for the ratio.
//
//   PRACA_BIN=build/praca node bench/installs.js [bots ...]     (10 and 3000 without arguments)
'use strict';
const fs = require('node:fs');
const { startServer, api, register, appWithBot, install } = require('../tests/e2e/helpers');

const MORE = 60;
const cpuMs = (pid) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function run(bots) {
  const srv = await startServer({ single: true, args: ['--rate-limit-scale', '100000', '--access-log=0'] });
  try {
    const owner = await register(srv.url);
    const created = await api(srv.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'Bots' } });
    const sid = created.body.server.id;
    const one = async (i) => {
      const info = await appWithBot(srv.url, owner, { name: `bot ${i}` });
      const { complete } = await install(srv.url, owner, info, sid, { permissions: 256 | 512 });
      if (complete.status !== 200) throw new Error(complete.text);
      return info;
    };
    for (let i = 0; i < bots; i += 8) await Promise.all(Array.from({ length: Math.min(8, bots - i) }, (_, k) => one(i + k)));
    // The apps are made first; only the install's last step (the writer's) is timed.
    const apps = [];
    for (let i = 0; i < MORE; i++) apps.push(await appWithBot(srv.url, owner, { name: `timed ${i}` }));
    const ms = [];
    const c0 = cpuMs(srv.proc.pid);
    for (const info of apps) {
      const t = process.hrtime.bigint();
      const { complete } = await install(srv.url, owner, info, sid, { permissions: 256 | 512 });
      ms.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (complete.status !== 200) throw new Error(complete.text);
    }
    const cpu = (cpuMs(srv.proc.pid) - c0) / MORE;
    console.log(JSON.stringify({ bots, installs: MORE, medianMs: +median(ms).toFixed(2), serverCpuMsPerInstall: +cpu.toFixed(2) }));
  } finally {
    await srv.stop();
  }
}

(async () => {
  const sizes = process.argv.slice(2).map(Number);
  for (const n of sizes.length ? sizes : [10, 3000]) await run(n);
})().catch((e) => { console.error(e); process.exit(1); });
