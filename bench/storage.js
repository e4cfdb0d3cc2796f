// Disk per message: N messages of 64 characters (default 20,000) sent through the bot route by
// 8 concurrent senders, then the server stopped and SQLite's dbstat read: the bytes of each
// table with its indexes, per message. The figure to watch is the whole file against the
// messages table with its own indexes (the search index counted apart).
//
//   PRACA_BIN=build/praca node bench/storage.js
'use strict';
const { spawnSync } = require('node:child_process');
const { startServer, api, serverWithMembers, appWithBot, install } = require('../tests/e2e/helpers');

const N = Number(process.env.N || 20000);

const DBSTAT = `
import sqlite3, sys, json
db = sqlite3.connect(sys.argv[1])
tables = {r[0]: r[1] for r in db.execute("SELECT name, tbl_name FROM sqlite_schema WHERE type IN ('table', 'index')")}
sizes = {}
for name, size in db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
    owner = tables.get(name, name)
    if owner.startswith('message_search'): owner = 'message_search (FTS5)'
    sizes[owner] = sizes.get(owner, 0) + size
print(json.dumps(sizes))
`;

async function main() {
  const srv = await startServer({ single: true, args: ['--rate-limit-scale', '100000', '--access-log=0'] });
  const w = await serverWithMembers(srv.url, 0);
  const info = await appWithBot(srv.url, w.owner, { intents: ['messages.read'] });
  await install(srv.url, w.owner, info, w.sid, { permissions: 0x3 });
  const cid = w.server.channels[0].id;
  const text = 'x'.repeat(54);
  let next = 0;
  const sender = async () => {
    for (let i = next++; i < N; i = next++) {
      const r = await api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${cid}/messages`, { token: info.botToken, body: { content: `${String(i).padStart(9, '0')} ${text}` } });
      if (r.status !== 200) throw new Error(`send: ${r.status} ${r.text}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, sender));
  await srv.stop();
  const r = spawnSync('/usr/bin/python3', ['-c', DBSTAT, srv.storeArgs[1]], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  const sizes = JSON.parse(r.stdout);
  const total = Object.values(sizes).reduce((a, b) => a + b, 0);
  const per = (b) => Math.round(b / N);
  const rows = Object.entries(sizes).filter(([, b]) => b / N >= 1).sort((a, b) => b[1] - a[1]).map(([t, b]) => ({ table: t, bytesPerMessage: per(b) }));
  console.log(JSON.stringify({ messages: N, tables: rows, totalPerMessage: per(total), messagesPerMessage: per(sizes.messages), ratio: +(total / sizes.messages).toFixed(2), ratioWithoutSearch: +((total - (sizes['message_search (FTS5)'] || 0)) / sizes.messages).toFixed(2) }));
}

main().catch((e) => { console.error(e); process.exit(1); });
