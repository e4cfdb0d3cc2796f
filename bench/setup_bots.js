// Creates one server with N installed bots; prints the send path, then one bot token a line.
//   node bench/setup_bots.js http://127.0.0.1:PORT N
'use strict';
const { api, register, appWithBot, install } = require('../tests/e2e/helpers');

(async () => {
  const [base, countText] = process.argv.slice(2);
  const count = Number(countText || 50);
  const owner = await register(base, 'bench_owner');
  const created = await api(base, 'POST', '/api/servers', { token: owner.token, body: { name: 'Bench' } });
  const sid = created.body.server.id;
  const cid = created.body.channels[0].id;
  const tokens = [];
  for (let i = 0; i < count; i++) {
    const info = await appWithBot(base, owner, { name: `bench ${i}` });
    const { complete } = await install(base, owner, info, sid, { permissions: 256 | 512 });
    if (complete.status !== 200) throw new Error(complete.text);
    tokens.push(info.botToken);
  }
  console.log(`/api/bot/servers/${sid}/channels/${cid}/messages`);
  for (const t of tokens) console.log(t);
})().catch((e) => { console.error(e); process.exit(1); });
