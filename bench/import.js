// What importing a Discord server's history (or, FORMAT=praca-archive, a Praça server's archive)
// costs, beside a live server that others use.
//
// An export of MESSAGES messages (default 1,000,000) over CHANNELS channel files (default 10),
// by 50 authors, one reaction on every tenth message, is written to a temporary folder in
// DiscordChatExporter's JSON. A praca serves the same data (SQLite, or PostgreSQL when
// PRACA_TEST_POSTGRES is set, through scripts/with-postgres.sh); a bystander sends to a server of
// their own, RATE messages a second (default 20), the whole time; then `praca import discord`
// runs with BATCH messages per transaction (default 200, as the command). Reported: messages imported per second,
// the importer's peak memory (VmHWM) and how it grows with the export, the server's CPU while it
// follows, and the bystander's send p50/p99 before and during the import.
//
// With FORMAT=praca-archive the same messages are written as one archive (praca export's
// JSON lines: 50 people, CHANNELS channels) and imported with `praca import praca-archive`.
//
// With FILE_EVERY=k every k-th message has a picture (a 64×48 PNG, each file its own bytes): in
// the export's folder as DiscordChatExporter's --media writes it, or with FILES_FROM=link at a
// link a local site serves (FILE_DELAY_MS before each answer, default 0, to stand for a CDN's
// round trip). Reported besides: files brought per second.
//
//   PRACA_BIN=build/praca node bench/import.js
//   MESSAGES=100000 PRACA_BIN=build/praca scripts/with-postgres.sh node bench/import.js
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startServer, api, register, tempDir, BIN } = require('../tests/e2e/helpers');
const { cpuNs, pct } = require('./measure');

const MESSAGES = Number(process.env.MESSAGES || 1000000);
const CHANNELS = Number(process.env.CHANNELS || 10);
const RATE = Number(process.env.RATE || 20);
const BATCH = Number(process.env.BATCH || 200);
const EPOCH = 1420070400000n;
const ARCHIVE = process.env.FORMAT === 'praca-archive';
const FILE_EVERY = Number(process.env.FILE_EVERY || 0);
const FROM_LINK = process.env.FILES_FROM === 'link';
const FILE_DELAY_MS = Number(process.env.FILE_DELAY_MS || 0);
const PNG = fs.readFileSync(path.join(__dirname, '..', 'tests', 'e2e', 'fixtures', 'note.png'));
let site = null; // the local site files are fetched from (FILES_FROM=link)

// The k-th picture: the PNG with k after its end, so that no two files are the same bytes.
const picture = (k) => Buffer.concat([PNG, Buffer.from(String(k))]);

// The same history as one archive: a server, its people and channels, then its messages, each a
// line, and a reaction on every tenth.
function writeArchive(dir) {
  const file = fs.openSync(path.join(dir, 'grande.praca'), 'w');
  const line = (o) => fs.writeSync(file, JSON.stringify(o) + '\n');
  const sid = '01900000-0000-7000-8000-00000000aaaa', owner = '01900000-0000-7000-8000-00000000bbbb';
  const uuid = (prefix, n) => `${prefix}-0000-7000-8000-${String(n).padStart(12, '0')}`;
  const people = Array.from({ length: 50 }, (_, k) => uuid('01900000', 1000 + k));
  line({ record: 'archive', format: 'praca-archive', version: 1, exportedAt: Date.now() });
  line({ record: 'server', id: sid, name: 'Grande', description: '', rules: '', requiresRulesAcceptance: false, verificationLevel: 0, requires2fa: false,
    discoverable: false, tags: [], automodBlockedWords: [], automodMaxMentions: null, linkPreviews: true, ownerId: owner, createdAt: 1600000000000 });
  for (const [k, id] of people.entries()) {
    line({ record: 'person', id, username: `autor${k}`, displayName: `autor${k}`, about: null, bannerColor: null, isBot: false, createdAt: 1600000000000 });
    line({ record: 'member', serverId: sid, userId: id, nickname: null, joinedAt: 1600000000000 + k });
  }
  const channels = Array.from({ length: CHANNELS }, (_, c) => uuid('01900001', c));
  for (const [c, id] of channels.entries())
    line({ record: 'channel', id, serverId: sid, type: 'text', name: `canal-${c}`, topic: null, position: c, categoryId: null, synced: false, parentId: null, originMessageId: null, ownerId: null, createdAt: 1600000000000 });
  for (let i = 0; i < MESSAGES; i++) {
    const at = 1600000000000 + i * 1000, id = `${at.toString(16).padStart(12, '0').replace(/(.{8})(.{4})/, '$1-$2')}-7000-8000-${String(i).padStart(12, '0')}`;
    line({ record: 'message', id, channelId: channels[i % CHANNELS], threadParentId: null, serverId: sid, authorId: people[i % 50], type: 'text',
      content: `mensagem ${i}: conversa de todo dia, com algumas palavras a mais para ter o tamanho de uma mensagem comum`, embeds: null, flags: 0, replyToId: null,
      mentions: [], mentionedRoleIds: [], mentionsEveryone: false, pinned: false, createdAt: at, editedAt: null, attachments: null, webhookId: null, authorName: null, authorAvatar: null });
    if (i % 10 === 0) line({ record: 'reaction', messageId: id, channelId: channels[i % CHANNELS], serverId: sid, emoji: '👍', customEmojiId: '', userId: people[(i + 1) % 50], createdAt: at + 1 });
  }
  fs.closeSync(file);
}

function attachmentsOf(dir, c, i) {
  if (!FILE_EVERY || i % FILE_EVERY) return [];
  const name = `f-${c}-${i}.png`;
  if (FROM_LINK) return [{ url: `${site.url}/${name}`, fileName: name }];
  fs.mkdirSync(path.join(dir, 'media'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'media', name), picture(c * 1e9 + i));
  return [{ url: `media/${name}`, fileName: name }];
}

async function startSite() {
  const http = require('node:http');
  const s = http.createServer((req, res) => {
    const m = req.url.match(/^\/f-(\d+)-(\d+)\.png$/);
    setTimeout(() => {
      if (!m) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(picture(Number(m[1]) * 1e9 + Number(m[2])));
    }, FILE_DELAY_MS);
  });
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${s.address().port}`, close: () => s.close() };
}

function writeExport(dir) {
  const authors = Array.from({ length: 50 }, (_, k) => ({ id: String(300000000000000000n + BigInt(k)), name: `autor${k}`, nickname: null, isBot: false }));
  const per = Math.ceil(MESSAGES / CHANNELS);
  for (let c = 0; c < CHANNELS; c++) {
    const file = fs.openSync(path.join(dir, `canal-${String(c).padStart(3, '0')}.json`), 'w');
    fs.writeSync(file, JSON.stringify({ guild: { id: '990', name: 'Grande' }, channel: { id: String(991 + c), type: 'GuildTextChat', categoryId: null, category: null, name: `canal-${c}` } }).slice(0, -1) + ',"messages":[');
    const n = Math.min(per, MESSAGES - c * per);
    for (let i = 0; i < n; i++) {
      const at = 1600000000000 + (c * per + i) * 1000;
      const m = { id: String((BigInt(at) - EPOCH) << 22n), type: 'Default', timestamp: new Date(at).toISOString(), timestampEdited: null, isPinned: false,
        content: `mensagem ${c}-${i}: conversa de todo dia, com algumas palavras a mais para ter o tamanho de uma mensagem comum`, author: authors[i % 50], attachments: attachmentsOf(dir, c, i),
        reactions: i % 10 ? [] : [{ emoji: { id: '', name: '👍' }, count: 1, users: [authors[(i + 1) % 50]] }] };
      fs.writeSync(file, (i ? ',' : '') + JSON.stringify(m));
    }
    fs.writeSync(file, ']}');
    fs.closeSync(file);
  }
}

// A bystander's sends, RATE a second, until stop(): their latencies in ms.
function bystander(url, who, sid, cid) {
  const lat = [];
  let running = true;
  const done = (async () => {
    for (let i = 0; running; i++) {
      const t0 = process.hrtime.bigint();
      await api(url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: who.token, body: { content: `ao lado ${i}` } });
      lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
      await new Promise((r) => setTimeout(r, 1000 / RATE));
    }
  })();
  return { lat, stop: async () => { running = false; await done; } };
}

// Runs the import, sampling its peak resident memory; resolves with {seconds, hwmKiB, out}.
function runImport(srv, dir, owner) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const what = ARCHIVE ? ['praca-archive', path.join(dir, 'grande.praca')] : ['discord', dir];
    const files = ['--files', path.join(srv.dir, 'files'), '--allow-private-endpoints'];
    const p = spawn(BIN, ['import', ...what, '--server', 'Grande', '--owner', owner.user.username, '--batch', String(BATCH), ...srv.storeArgs, ...files], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '', hwm = 0;
    const sample = setInterval(() => {
      try {
        const m = fs.readFileSync(`/proc/${p.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/);
        if (m) hwm = Math.max(hwm, Number(m[1]));
      } catch { /* ended */ }
    }, 100);
    p.stdout.on('data', (d) => { out = (out + d).slice(-2000); });
    p.on('exit', (code) => {
      clearInterval(sample);
      if (code !== 0) return reject(new Error(`import exited ${code}`));
      resolve({ seconds: Number(process.hrtime.bigint() - t0) / 1e9, hwmKiB: hwm, out });
    });
  });
}

(async () => {
  const dir = tempDir('praca-bench-import-');
  const t0 = Date.now();
  if (FROM_LINK) site = await startSite();
  if (ARCHIVE) writeArchive(dir);
  else writeExport(dir);
  const bytes = fs.readdirSync(dir).filter((f) => f.endsWith('.json') || f.endsWith('.praca')).reduce((a, f) => a + fs.statSync(path.join(dir, f)).size, 0);
  console.log(`export: ${MESSAGES} messages in ${ARCHIVE ? 1 : CHANNELS} files, ${(bytes / 1048576).toFixed(0)} MiB, written in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const srv = await startServer({ single: true, args: ['--rate-limit-scale', '100000', '--access-log=0'] });
  const owner = await register(srv.url), other = await register(srv.url);
  const sid = (await api(srv.url, 'POST', '/api/servers', { token: other.token, body: { name: 'Ao lado' } })).body.server.id;
  const cid = (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: other.token })).body.channels[0].id;
  const before = bystander(srv.url, other, sid, cid);
  await new Promise((r) => setTimeout(r, 5000));
  await before.stop();
  const during = bystander(srv.url, other, sid, cid);
  const c0 = cpuNs(srv.proc.pid);
  const run = await runImport(srv, dir, owner);
  const serverMs = (cpuNs(srv.proc.pid) - c0) / 1e6;
  await during.stop();
  console.log(run.out.trim().split('\n').pop());
  console.log(`engine: ${process.env.PRACA_TEST_POSTGRES ? 'PostgreSQL' : 'SQLite'}, batch ${BATCH}, ${ARCHIVE ? 'praca-archive' : 'discord'}`);
  console.log(`imported: ${MESSAGES} messages in ${run.seconds.toFixed(1)} s = ${Math.round(MESSAGES / run.seconds)} messages/s`);
  const brought = Number((run.out.match(/(\d+) files brought/) || [0, 0])[1]);
  if (FILE_EVERY) console.log(`files: ${brought} brought ${FROM_LINK ? `from links (${FILE_DELAY_MS} ms each)` : "from the export's folder"}, ${(brought / run.seconds).toFixed(0)} a second over the whole import`);
  console.log(`importer's peak memory: ${(run.hwmKiB / 1024).toFixed(0)} MiB (export ${(bytes / 1048576).toFixed(0)} MiB, largest file ${(bytes / CHANNELS / 1048576).toFixed(0)} MiB)`);
  console.log(`server CPU while it followed: ${(serverMs / run.seconds).toFixed(0)} ms per s`);
  console.log(`bystander sends before: n=${before.lat.length} p50 ${pct(before.lat, 0.5).toFixed(1)} ms, p99 ${pct(before.lat, 0.99).toFixed(1)} ms`);
  console.log(`bystander sends during: n=${during.lat.length} p50 ${pct(during.lat, 0.5).toFixed(1)} ms, p99 ${pct(during.lat, 0.99).toFixed(1)} ms`);
  await srv.stop();
  if (site) site.close();
})().catch((e) => { console.error(e); process.exit(1); });
