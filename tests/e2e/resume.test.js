// Resuming from the event log: a bot that comes back after praca was killed or restarted gets
// what it missed, in order, exactly once; past retention it is told so with EVENTS_GAP.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { io } = require('socket.io-client');
const WebSocket = require('ws');
const { startServer, api, appWithBot, install, serverWithMembers, rawResume, eventually, quiet } = require('./helpers');

const { P } = require('./permissions');

async function world(srv) {
  const w = await serverWithMembers(srv.url, 0);
  const info = await appWithBot(srv.url, w.owner, { intents: ['messages.read'] });
  await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  const url = `/api/servers/${w.sid}/channels/${w.server.channels[0].id}/messages`;
  return { ...w, info, url };
}

for (const [mode, signal] of [['default', 'SIGKILL'], ['websocket', 'SIGTERM']]) {
  test(`${signal} and a restart (${mode}): the bot resumes with every message sent while it was away, once, in order`, async () => {
    const s1 = await startServer({ args: ['--rate-limit-scale', '100'] });
    let s2;
    const bot = { contents: [], offsets: [] };
    let c;
    try {
      const w = await world(s1);
      c = io(s1.url, { auth: { token: w.info.botToken, recovery: true }, reconnectionDelay: 1500, reconnectionDelayMax: 1500, ...(mode === 'websocket' ? { transports: ['websocket'] } : {}) });
      c.on('MESSAGE_CREATE', (m, offset) => { bot.contents.push(m.content); bot.offsets.push(Number(offset)); });
      await new Promise((r) => c.once('connect', r));
      await api(s1.url, 'POST', w.url, { token: w.owner.token, body: { content: 'antes' } });
      await eventually(() => bot.contents.length >= 1 || bot.contents, 3000, 'the first message');
      // The bot stays away until the messages are sent (however long a loaded machine takes),
      // then comes back as its client would.
      c.io.reconnection(false);
      s1.proc.kill(signal);
      await s1.exited;
      s2 = await startServer({ dir: s1.dir, args: ['--port', String(s1.port), '--rate-limit-scale', '100'] });
      const sent = [];
      for (let i = 0; i < 20; i++) {
        const r = await api(s2.url, 'POST', w.url, { token: w.owner.token, body: { content: `m${i}` } });
        assert.equal(r.status, 200);
        sent.push(`m${i}`);
      }
      assert.equal(c.connected, false, 'the messages were sent before the bot came back');
      c.io.reconnection(true);
      c.connect();
      await new Promise((r) => c.once('connect', r));
      assert.equal(c.recovered, true);
      const live = await api(s2.url, 'POST', w.url, { token: w.owner.token, body: { content: 'ao vivo' } });
      assert.equal(live.status, 200);
      await eventually(() => bot.contents.length >= 22 || bot.contents.length, 5000, 'every message');
      await quiet(300); // and nothing more
      assert.deepEqual(bot.contents, ['antes', ...sent, 'ao vivo']);
      for (let i = 1; i < bot.offsets.length; i++) assert.ok(bot.offsets[i] > bot.offsets[i - 1], 'offsets increase');
    } finally {
      if (c) c.close();
      if (s2) {
        const r = await s2.stop();
        assert.equal(r.code, 0, s2.stderr);
      }
    }
  });
}

test('past retention: EVENTS_GAP with the oldest position kept, then what is left', async () => {
  const s1 = await startServer();
  let s2;
  try {
    const w = await world(s1);
    for (const content of ['velha 1', 'velha 2', 'velha 3']) {
      assert.equal((await api(s1.url, 'POST', w.url, { token: w.owner.token, body: { content } })).status, 200);
    }
    s1.proc.kill('SIGTERM');
    await s1.exited;
    s2 = await startServer({ dir: s1.dir, args: ['--test-clock', '--event-retention-hours', '1'], single: true }); // one trimmer
    await api(s2.url, 'POST', '/api/test/clock', { body: { advanceMs: 2 * 3600 * 1000 } });
    // The first trim runs a second after the start; the newest row stays.
    await eventually(async () => (await api(s2.url, 'GET', '/api/bot/events?after=1', { token: w.info.botToken })).body.gap !== undefined, 5000, 'the trim');
    await api(s2.url, 'POST', w.url, { token: w.owner.token, body: { content: 'nova' } });
    const r = await rawResume(s2.url, w.info.botToken, 'q'.repeat(20), 1);
    await eventually(() => r.events.length >= 3 || r.events.map((e) => e[0]), 5000, 'the gap and what is kept');
    await quiet(200); // and nothing more
    assert.equal(r.connect.pid, 'q'.repeat(20), 'recovered: the pid it presented');
    assert.equal(r.events[0][0], 'EVENTS_GAP');
    assert.equal(r.events[0][1].after, '1');
    const oldest = Number(r.events[0][1].oldestPosition);
    assert.ok(oldest > 2, 'positions after 1 were trimmed');
    const rest = r.events.slice(1).map((e) => [e[1].content, Number(e[2])]);
    assert.deepEqual(rest.map((e) => e[0]), ['velha 3', 'nova'], 'what is kept still comes');
    assert.equal(rest[0][1], oldest);
    r.ws.close();
    const http = await api(s2.url, 'GET', '/api/bot/events?after=1', { token: w.info.botToken });
    assert.equal(http.status, 200);
    assert.deepEqual(http.body.gap, { after: '1', oldestPosition: String(oldest) });
    assert.deepEqual(http.body.events.map((e) => e.data.content), ['velha 3', 'nova']);
  } finally {
    if (s2) await s2.stop();
  }
});

test('an intent switched off while away: those events are not replayed', async () => {
  const s1 = await startServer();
  let s2;
  try {
    const w = await world(s1);
    const one = await api(s1.url, 'POST', w.url, { token: w.owner.token, body: { content: 'um' } });
    const two = await api(s1.url, 'POST', w.url, { token: w.owner.token, body: { content: 'dois' } });
    assert.equal(two.status, 200);
    s1.proc.kill('SIGKILL');
    await s1.exited;
    s2 = await startServer({ dir: s1.dir });
    const on = await rawResume(s2.url, w.info.botToken, 'r'.repeat(20), 1);
    await eventually(() => on.events.length >= 2 || on.events.length, 5000, 'both replayed');
    await quiet(200); // and nothing more
    assert.deepEqual(on.events.map((e) => e[1].content), ['um', 'dois'], 'entitled: both');
    on.ws.close();
    await api(s2.url, 'PUT', `/api/applications/${w.info.app.id}/intents`, { token: w.owner.token, body: { intents: ['members.read'] } });
    const off = await rawResume(s2.url, w.info.botToken, 's'.repeat(20), 1);
    await quiet(300);
    assert.deepEqual(off.events, [], 'messages.read is off now: nothing of it is replayed');
    off.ws.close();
    assert.ok(one.status === 200);
  } finally {
    if (s2) await s2.stop();
  }
});

test('GET /api/bot/events: the same stream over HTTP, paged by position, filtered as now', async () => {
  const srv = await startServer();
  try {
    const w = await world(srv);
    for (const content of ['a', 'b', 'c']) await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content } });
    const all = await api(srv.url, 'GET', '/api/bot/events?after=0', { token: w.info.botToken });
    assert.equal(all.status, 200);
    const messages = all.body.events.filter((e) => e.type === 'MESSAGE_CREATE');
    assert.deepEqual(messages.map((e) => e.data.content), ['a', 'b', 'c']);
    assert.deepEqual(Object.keys(all.body.events[0]), ['position', 'type', 'data']);
    const positions = all.body.events.map((e) => Number(e.position));
    for (let i = 1; i < positions.length; i++) assert.ok(positions[i] > positions[i - 1]);
    assert.equal(all.body.next, all.body.events.at(-1).position);
    assert.equal(all.body.gap, undefined);
    // Paging: one at a time from the position before the first message.
    const start = String(Number(messages[0].position) - 1);
    const one = await api(srv.url, 'GET', `/api/bot/events?after=${start}&limit=1`, { token: w.info.botToken });
    assert.deepEqual(one.body.events.map((e) => e.data.content), ['a']);
    const two = await api(srv.url, 'GET', `/api/bot/events?after=${one.body.next}&limit=1`, { token: w.info.botToken });
    assert.deepEqual(two.body.events.map((e) => e.data.content), ['b']);
    const end = await api(srv.url, 'GET', `/api/bot/events?after=${all.body.next}`, { token: w.info.botToken });
    assert.deepEqual(end.body, { events: [], next: all.body.next });
    for (const q of ['after=-1', 'after=x', 'limit=0', 'limit=1001']) {
      assert.equal((await api(srv.url, 'GET', `/api/bot/events?${q}`, { token: w.info.botToken })).status, 400, q);
    }
    assert.equal((await api(srv.url, 'GET', '/api/bot/events', { token: w.owner.token })).status, 403, 'bots only');
    // Another bot, not installed there, sees none of it.
    const other = await appWithBot(srv.url, w.owner, { intents: ['messages.read'] });
    const none = await api(srv.url, 'GET', '/api/bot/events?after=0', { token: other.botToken });
    assert.deepEqual(none.body.events, []);
  } finally {
    const r = await srv.stop();
    assert.equal(r.code, 0, srv.stderr);
  }
});

test('replay shows nothing deleted or edited away, and nothing from before the bot came (or while it was gone)', async () => {
  const srv = await startServer({ args: ['--rate-limit-scale', '100'] });
  try {
    const w = await serverWithMembers(srv.url, 0);
    const cid = w.server.channels[0].id;
    const url = `/api/servers/${w.sid}/channels/${cid}/messages`;
    const send = async (content) => (await api(srv.url, 'POST', url, { token: w.owner.token, body: { content } })).body.message.id;
    await send('antes do bot');
    const info = await appWithBot(srv.url, w.owner, { intents: ['messages.read'] });
    await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
    await send('fica');
    const gone = await send('segredo apagado');
    const edited = await send('texto antigo');
    assert.equal((await api(srv.url, 'DELETE', `${url}/${gone}`, { token: w.owner.token })).status, 200);
    assert.equal((await api(srv.url, 'PATCH', `${url}/${edited}`, { token: w.owner.token, body: { content: 'texto novo' } })).status, 200);
    // Away: uninstalled, then installed again.
    assert.equal((await api(srv.url, 'DELETE', `/api/applications/${info.app.id}/installs/${w.sid}`, { token: w.owner.token })).status, 200);
    await send('enquanto fora');
    await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
    await send('de volta');
    const events = (await api(srv.url, 'GET', '/api/bot/events?after=0', { token: info.botToken })).body.events;
    const texts = events.filter((e) => e.type === 'MESSAGE_CREATE' || e.type === 'MESSAGE_UPDATE').map((e) => `${e.type} ${e.data.content}`);
    assert.deepEqual(texts, ['MESSAGE_CREATE de volta'], 'what came before this install is not replayed');
    // A bot present all along: the deleted message is gone, the edited one shows its new text.
    const other = await appWithBot(srv.url, w.owner, { intents: ['messages.read'], name: 'Outro' });
    const w2 = await serverWithMembers(srv.url, 0);
    const c2 = w2.server.channels[0].id;
    const url2 = `/api/servers/${w2.sid}/channels/${c2}/messages`;
    await install(srv.url, w2.owner, other, w2.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
    const send2 = async (content) => (await api(srv.url, 'POST', url2, { token: w2.owner.token, body: { content } })).body.message.id;
    await send2('fica');
    const gone2 = await send2('segredo apagado');
    const edited2 = await send2('texto antigo');
    await api(srv.url, 'DELETE', `${url2}/${gone2}`, { token: w2.owner.token });
    await api(srv.url, 'PATCH', `${url2}/${edited2}`, { token: w2.owner.token, body: { content: 'texto novo' } });
    // A person's edit is logged by a writer job right after its answer: wait for it.
    let seen = [];
    await eventually(async () => {
      seen = (await api(srv.url, 'GET', '/api/bot/events?after=0', { token: other.botToken })).body.events;
      return seen.some((e) => e.type === 'MESSAGE_UPDATE') || seen.map((e) => e.type);
    }, 10000, 'the edit logged');
    assert.deepEqual(seen.filter((e) => e.type.startsWith('MESSAGE_')).map((e) => `${e.type} ${e.data.content ?? e.data.id}`),
      ['MESSAGE_CREATE fica', 'MESSAGE_CREATE texto novo', `MESSAGE_DELETE ${gone2}`, 'MESSAGE_UPDATE texto novo']);
    assert.ok(!JSON.stringify(seen).includes('segredo') && !JSON.stringify(seen).includes('texto antigo'), 'neither text is anywhere');
  } finally { await srv.stop(); }
});

test('SIGKILL during a send storm: after the restart the bot has every acknowledged message once, in order', async () => {
  const s1 = await startServer({ args: ['--rate-limit-scale', '1000'] });
  let s2;
  let c;
  try {
    const w = await world(s1);
    const got = [];
    const offsets = [];
    c = io(s1.url, { auth: { token: w.info.botToken, recovery: true }, reconnectionDelay: 300, reconnectionDelayMax: 600, transports: ['websocket'] });
    c.on('MESSAGE_CREATE', (m, offset) => { got.push(m.content); offsets.push(Number(offset)); });
    await new Promise((r) => c.once('connect', r));
    await api(s1.url, 'POST', w.url, { token: w.owner.token, body: { content: 'primeira' } });
    await eventually(() => got.length >= 1, 3000, 'the first message');
    const acked = [];
    let n = 0;
    let stop = false;
    const sender = async () => {
      while (!stop) {
        const content = `t${n++}`;
        try {
          const r = await api(s1.url, 'POST', w.url, { token: w.owner.token, body: { content } });
          if (r.status === 200) acked.push(content);
        } catch { return; }
      }
    };
    const senders = Array.from({ length: 4 }, sender);
    await eventually(() => acked.length >= 20 || acked.length, 5000, 'a storm under way');
    s1.proc.kill('SIGKILL');
    stop = true;
    await Promise.all(senders);
    await s1.exited;
    assert.ok(acked.length > 5, `a storm: ${acked.length} acknowledged`);
    s2 = await startServer({ dir: s1.dir, args: ['--port', String(s1.port)] });
    await new Promise((r) => (c.connected ? r() : c.once('connect', r)));
    await eventually(() => acked.every((a) => got.includes(a)) || acked.filter((a) => !got.includes(a)), 5000, 'every acknowledged message');
    await quiet(300); // and nothing twice
    for (const a of acked) assert.equal(got.filter((g) => g === a).length, 1, `${a} exactly once`);
    assert.equal(new Set(got).size, got.length, 'nothing twice');
    for (let i = 1; i < offsets.length; i++) assert.ok(offsets[i] > offsets[i - 1], 'in order');
  } finally {
    if (c) c.close();
    if (s2) {
      const r = await s2.stop();
      assert.equal(r.code, 0, s2.stderr);
    }
  }
});

test('two quiet reconnects replay nothing; a drop before the first event still gets what came meanwhile', async () => {
  const srv = await startServer();
  let c;
  try {
    const w = await world(srv);
    const got = [];
    c = io(srv.url, { auth: { token: w.info.botToken, recovery: true }, reconnectionDelay: 100, reconnectionDelayMax: 200 });
    c.on('MESSAGE_CREATE', (m) => got.push(m.content));
    await new Promise((r) => c.once('connect', r));
    // Dropped before any event: what is sent while it is away still comes.
    const dropped = new Promise((r) => c.once('disconnect', r));
    const back = new Promise((r) => c.once('connect', r));
    c.io.engine.close();
    await dropped;
    await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: 'enquanto fora' } });
    await back;
    assert.equal(c.recovered, true);
    await eventually(() => got.length >= 1, 3000, 'what came meanwhile');
    assert.deepEqual(got, ['enquanto fora']);
    for (let i = 0; i < 2; i++) {
      const again = new Promise((r) => c.once('connect', r));
      c.io.engine.close();
      await again;
      assert.equal(c.recovered, true);
      await quiet(300);
    }
    assert.deepEqual(got, ['enquanto fora'], 'nothing replayed twice');
  } finally {
    if (c) c.close();
    const r = await srv.stop();
    assert.equal(r.code, 0, srv.stderr);
  }
});

test('a bot dropped for reading too slowly resumes from its position with nothing lost', async () => {
  const srv = await startServer({ args: ['--rate-limit-scale', '10000'] });
  try {
    const w = await world(srv);
    const ws = new WebSocket(`${srv.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
    let pid;
    let offset;
    const firstEvent = new Promise((resolve) => ws.on('message', (d) => {
      const t = d.toString();
      if (t[0] === '0') ws.send(`40${JSON.stringify({ token: w.info.botToken, recovery: true })}`);
      else if (t.startsWith('40')) pid = JSON.parse(t.slice(2)).pid;
      else if (t.startsWith('42') && offset === undefined) { offset = JSON.parse(t.slice(2)).at(-1); resolve(); }
    }));
    await new Promise((r) => ws.on('open', r));
    await eventually(() => pid !== undefined, 3000, 'the connect');
    await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: 'lida' } });
    await firstEvent;
    ws._socket.pause(); // reads nothing from now on
    const big = 'x'.repeat(3900);
    const sent = [];
    // Presence is each node's: asked of the one holding the socket. The posts take turns.
    const botStatus = async () => (await api(srv.url, 'GET', `/api/servers/${w.sid}/members`, { token: w.owner.token, node: 0 })).body.members.find((m) => m.userId === w.info.app.botUserId).status;
    for (let round = 0; round < 80 && (await botStatus()) === 'online'; round++) {
      const batch = Array.from({ length: 20 }, (_, i) => `r${round}-${i}-${big}`);
      for (const content of batch) {
        const r = await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content } });
        assert.equal(r.status, 200);
        sent.push(content);
      }
    }
    assert.equal(await botStatus(), 'offline', 'dropped as a slow reader');
    ws.terminate();
    // On several nodes, it comes back to the other one. The replay (megabytes here) is bound by
    // the same per-connection queue as anything else: a reader that cannot keep up with it on a
    // loaded machine is dropped again, and resumes again from the last offset it received, as a
    // socket.io client does. Nothing is lost or repeated across those resumes.
    const node = srv.nodes ? srv.nodes[1].url : srv.url;
    const got = [];
    let from = offset;
    let session = pid;
    for (let attempt = 1; got.length < sent.length; attempt++) {
      assert.ok(attempt <= 10, `every message within 10 resumes (${got.length} of ${sent.length})`);
      const back = await rawResume(node, w.info.botToken, session, from);
      const closed = new Promise((r) => back.ws.on('close', r));
      const all = eventually(() => got.length + back.events.length >= sent.length, 8000, 'every message').catch(() => {});
      await Promise.race([all, closed]);
      await quiet(200);
      back.ws.terminate();
      for (const e of back.events) {
        got.push(e[1].content);
        from = e.at(-1);
      }
      session = (back.connect && back.connect.pid) || session;
    }
    assert.deepEqual(got, sent, 'every message after its position, in order, once');
  } finally {
    const r = await srv.stop();
    assert.equal(r.code, 0, srv.stderr);
  }
});

test('a bot that had received nothing when praca restarted still gets what was sent while it was away', async () => {
  const s1 = await startServer();
  let s2;
  let c;
  try {
    const w = await world(s1);
    const got = [];
    c = io(s1.url, { auth: { token: w.info.botToken, recovery: true }, reconnectionDelay: 1500, reconnectionDelayMax: 1500, transports: ['websocket'] });
    c.on('MESSAGE_CREATE', (m) => got.push(m.content));
    await new Promise((r) => c.once('connect', r));
    s1.proc.kill('SIGKILL');
    await s1.exited;
    s2 = await startServer({ dir: s1.dir, args: ['--port', String(s1.port)] });
    await api(s2.url, 'POST', w.url, { token: w.owner.token, body: { content: 'enquanto reiniciava' } });
    await new Promise((r) => c.once('connect', r));
    assert.equal(c.recovered, true);
    await eventually(() => got.length >= 1, 3000, 'what was sent meanwhile');
    await quiet(200);
    assert.deepEqual(got, ['enquanto reiniciava']);
  } finally {
    if (c) c.close();
    if (s2) {
      const r = await s2.stop();
      assert.equal(r.code, 0, s2.stderr);
    }
  }
});

// More than a connection may have waiting (1 MiB), and more than the kernel's socket buffers
// take at once: the replay is handed over whole, not taken for a slow reader. 2,000 messages of
// 3,000 characters are about 7 MB.
test('a replay larger than a connection’s output limit arrives whole, the bot is not dropped as a slow reader', async () => {
  const srv = await startServer({ args: ['--rate-limit-scale', '100000'] });
  try {
    const w = await world(srv);
    const first = await api(srv.url, 'GET', '/api/bot/events?after=0', { token: w.info.botToken });
    const N = 2000;
    let next = 0;
    const sender = async () => {
      for (let i = next++; i < N; i = next++) {
        const r = await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: `perdida ${i} ${'x'.repeat(3000)}` } });
        assert.equal(r.status, 200);
      }
    };
    await Promise.all(Array.from({ length: 8 }, sender));
    const r = await rawResume(srv.url, w.info.botToken, 'z'.repeat(20), first.body.next);
    let closed = false;
    r.ws.on('close', () => { closed = true; });
    await eventually(() => r.events.length >= N || closed || r.events.length, 30000, 'every missed message');
    assert.equal(closed, false, 'still connected');
    const contents = r.events.filter(([name]) => name === 'MESSAGE_CREATE').map(([, m]) => m.content);
    assert.equal(contents.length, N);
    assert.equal(new Set(contents).size, N, 'each once');
    r.ws.close();
    assert.doesNotMatch(srv.stderr, /reads too slowly/);
  } finally {
    await srv.stop();
  }
});
