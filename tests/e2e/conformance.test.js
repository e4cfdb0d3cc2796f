// `praca serve --conformance`: the handlers of the official Engine.IO and Socket.IO protocol
// suites, checked byte by byte with the exchanges those suites make (raw HTTP and WebSocket).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const WebSocket = require('ws');
const { startServer, eventually, sharedServer } = require('./helpers');

const srv = sharedServer({ args: ['--conformance', '--log-level', '0'] });

const poll = async (path, sid, body) => {
  const url = `${srv.url}${path}?EIO=4&transport=polling${sid ? `&sid=${sid}` : ''}`;
  const res = await fetch(url, body === undefined ? {} : { method: 'POST', body, headers: { 'content-type': 'text/plain;charset=UTF-8' } });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
};

// A poll's packets but the server's pings, answered at once: the suites' 300 ms ping interval
// can put one in any poll when the machine is busy. Polls again while only pings came.
async function drain(path, sid) {
  for (;;) {
    const r = await poll(path, sid);
    const packets = r.text.split('\x1e');
    if (packets.includes('2')) await poll(path, sid, '3');
    const rest = packets.filter((p) => p !== '2');
    if (rest.length || r.status !== 200) return rest.join('\x1e');
  }
}

// The suite's settings give a polling session 200 ms to answer a ping: a client starved that
// long on a loaded machine loses its session (the server's next answer is "Session ID unknown").
// What these tests check is the exchange, so such a try is made again on a fresh session.
async function onFreshSession(exchange) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await exchange();
    } catch (e) {
      if (attempt === 5 || !String(e.message).includes('Session ID unknown')) throw e;
    }
  }
}

function wsOpen(path, sid) {
  const ws = new WebSocket(`${srv.url.replace('http', 'ws')}${path}?EIO=4&transport=websocket${sid ? `&sid=${sid}` : ''}`);
  const frames = [];
  const waiters = [];
  ws.on('message', (data, binary) => {
    const f = binary ? data : data.toString();
    if (ws.pongs && f === '2') { ws.send('3'); return; } // the heartbeat, answered as a client does
    const w = waiters.shift();
    if (w) w(f); else frames.push(f);
  });
  ws.next = () => new Promise((resolve) => { const f = frames.shift(); if (f !== undefined) resolve(f); else waiters.push(resolve); });
  return new Promise((resolve, reject) => { ws.on('open', () => resolve(ws)); ws.on('error', reject); });
}

test('handshake: the open packet with the suite settings', async () => {
  const r = await poll('/engine.io/');
  assert.equal(r.status, 200);
  assert.match(r.type, /^text\/plain; charset=UTF-8/);
  const open = JSON.parse(r.text.slice(1));
  assert.equal(r.text[0], '0');
  assert.match(open.sid, /^[\w-]{20}$/);
  assert.deepEqual(open.upgrades, ['websocket']);
  assert.equal(open.pingInterval, 300);
  assert.equal(open.pingTimeout, 200);
  assert.equal(open.maxPayload, 1000000);
});

test('/engine.io/ echoes text and binary over polling', () => onFreshSession(async () => {
  const { text } = await poll('/engine.io/');
  const sid = JSON.parse(text.slice(1)).sid;
  assert.equal((await poll('/engine.io/', sid, '4hello\x1e4€ world\x1ebAQIDBA==')).text, 'ok');
  assert.equal(await drain('/engine.io/', sid), '4hello\x1e4€ world\x1ebAQIDBA==');
}));

test('/engine.io/ echoes text and binary over WebSocket; server pings, the pong keeps it open', async () => {
  const ws = await wsOpen('/engine.io/');
  const open = await ws.next();
  assert.match(open, /^0\{"sid":"[\w-]+","upgrades":\[\],"pingInterval":300/);
  ws.send('4hello');
  assert.equal(await ws.next(), '4hello');
  ws.send(Buffer.from([1, 2, 3, 4]));
  assert.deepEqual([...(await ws.next())], [1, 2, 3, 4]);
  assert.equal(await ws.next(), '2');
  ws.send('3');
  assert.equal(await ws.next(), '2', 'pinged again after the pong');
  ws.close();
});

// A polling session upgraded as the clients do it: probe, the held GET answered with a noop,
// then the upgrade packet. The suite's heartbeat (a ping every 300 ms, 200 ms to answer) is
// shorter than a loaded machine guarantees between two steps of this client: a session the
// heartbeat ended meanwhile (the upgrade refused, or the held GET answered with a ping) is
// begun again, at most five times; the exchange checked is the same each time. The upgraded
// socket answers the server's pings itself, as clients do, so none comes between a test's frames.
async function upgraded() {
  for (let attempt = 1; ; attempt++) {
    const { text } = await poll('/engine.io/');
    const sid = JSON.parse(text.slice(1)).sid;
    const held = poll('/engine.io/', sid);
    const ws = await wsOpen('/engine.io/', sid).catch((e) => {
      if (attempt < 5 && /Unexpected server response: 400/.test(e.message)) return null;
      throw e;
    });
    if (!ws) { await held; continue; }
    ws.pongs = true; // once upgraded, the server pings here; a ping left unanswered ends the session
    ws.send('2probe');
    const probe = await ws.next();
    const answer = (await held).text;
    if (attempt < 5 && (probe !== '3probe' || answer !== '6')) { ws.close(); continue; }
    assert.equal(probe, '3probe');
    assert.equal(answer, '6');
    ws.send('5');
    return { sid, ws };
  }
}

test('polling → WebSocket upgrade: probe, noop to the held GET, then polling is refused', async () => {
  const { sid, ws } = await upgraded();
  ws.send('4after');
  assert.equal(await ws.next(), '4after');
  const r = await poll('/engine.io/', sid);
  assert.equal(r.status, 400);
  assert.deepEqual(JSON.parse(r.text), { code: 3, message: 'Bad request' });
  ws.close();
});

// Two requests on two connections: the second is sent once the server says it holds the first
// (at --log-level 0). A ping (every 300 ms here) may still answer the held GET before the second
// request comes; a try where that happened is made again, on a fresh session; the behaviour
// itself must hold on every try where it did.
const isHeld = (sid) => eventually(() => srv.stderr.includes(`session ${sid}'s poll is held`), 5000, `${sid}'s GET held`);

async function whenItHappens(tryOnce) {
  for (let attempt = 1; ; attempt++) {
    const outcome = await tryOnce();
    if (outcome !== 'not this time' || attempt === 5) return outcome;
  }
}

test('a second concurrent GET fails and closes the session; the first gets the close packet', async () => {
  const outcome = await whenItHappens(async () => {
    const { text } = await poll('/engine.io/');
    const sid = JSON.parse(text.slice(1)).sid;
    const first = poll('/engine.io/', sid);
    await isHeld(sid);
    const second = await poll('/engine.io/', sid);
    const held = await first;
    if (held.text === '2') return 'not this time'; // the ping answered the first GET before the second came
    assert.equal(second.status, 400);
    return held.text;
  });
  assert.equal(outcome, '1');
});

test('Socket.IO: CONNECT gets 40{sid} then the auth event; /custom too; unknown namespace refused', () => onFreshSession(async () => {
  const { text } = await poll('/socket.io/');
  const sid = JSON.parse(text.slice(1)).sid;
  await poll('/socket.io/', sid, '40{"token":"123"}');
  const [ack, auth] = (await drain('/socket.io/', sid)).split('\x1e');
  assert.match(ack, /^40\{"sid":"[\w-]{20}"\}$/);
  assert.equal(auth, '42["auth",{"token":"123"}]');
  await poll('/socket.io/', sid, '40/custom,');
  const custom = (await drain('/socket.io/', sid)).split('\x1e');
  assert.match(custom[0], /^40\/custom,\{"sid":"[\w-]{20}"\}$/);
  assert.equal(custom[1], '42/custom,["auth",{}]');
  await poll('/socket.io/', sid, '40/random');
  assert.equal(await drain('/socket.io/', sid), '44/random,{"message":"Invalid namespace"}');
}));

test('Socket.IO over WebSocket: message-back, acks, binary attachments, parse errors close', async () => {
  const ws = await wsOpen('/socket.io/');
  ws.pongs = true; // a ping under load would otherwise come between the frames checked
  await ws.next(); // open
  ws.send('40');
  assert.match(await ws.next(), /^40\{"sid":/);
  assert.equal(await ws.next(), '42["auth",{}]');
  ws.send('42["message",1,"2",{"3":[true]}]');
  assert.equal(await ws.next(), '42["message-back",1,"2",{"3":[true]}]');
  ws.send('4212["message-with-ack","olá",{"n":1}]');
  assert.equal(await ws.next(), '4312["olá",{"n":1}]');
  ws.send('451-["message",{"_placeholder":true,"num":0}]');
  ws.send(Buffer.from([1, 2, 3]));
  assert.equal(await ws.next(), '451-["message-back",{"_placeholder":true,"num":0}]');
  assert.deepEqual([...(await ws.next())], [1, 2, 3]);
  ws.send('4abc');
  await new Promise((resolve) => ws.on('close', resolve));
});

test('Socket.IO binary over polling, and no CONNECT within the timeout closes', async () => {
  const { text } = await poll('/socket.io/');
  const sid = JSON.parse(text.slice(1)).sid;
  await poll('/socket.io/', sid, '40');
  await drain('/socket.io/', sid);
  assert.equal((await poll('/socket.io/', sid, '451-["message",{"_placeholder":true,"num":0}]\x1ebAQIDBA==')).text, 'ok');
  assert.equal(await drain('/socket.io/', sid), '451-["message-back",{"_placeholder":true,"num":0}]\x1ebAQIDBA==');
  const idle = JSON.parse((await poll('/socket.io/')).text.slice(1)).sid;
  // Its pings answered, the session can only end for the CONNECT that never came (1 s).
  await eventually(async () => {
    const after = await poll('/socket.io/', idle);
    if (after.text === '2') await poll('/socket.io/', idle, '3');
    return after.text === '1' || after.status === 400 || `${after.status} ${after.text}`;
  }, 5000, 'closed for the missing CONNECT');
});

// The four session-close exchanges of the official suites (engine.io-protocol test-suite):
// a session the client closed or broke is gone at once; its sid answers 400.
const unknownSid = (r) => {
  assert.equal(r.status, 400);
  assert.deepEqual(JSON.parse(r.text), { code: 1, message: 'Session ID unknown' });
};

test('suite: after a POST of an undecodable packet, the next GET on that sid is 400', async () => {
  const { text } = await poll('/engine.io/');
  const sid = JSON.parse(text.slice(1)).sid;
  const post = await poll('/engine.io/', sid, 'abc');
  assert.equal(post.status, 200);
  unknownSid(await poll('/engine.io/', sid));
});

test('suite: with no pong for pingInterval + pingTimeout, a GET on that sid is 400', async () => {
  const { text } = await poll('/engine.io/');
  const sid = JSON.parse(text.slice(1)).sid;
  // GETs answered by pings, never ponged: after 300 + 200 ms the sid is gone.
  await eventually(async () => (await poll('/engine.io/', sid)).status === 400, 5000, 'the sid gone');
  unknownSid(await poll('/engine.io/', sid));
});

test('suite: a client close (POST 1) while a GET is pending answers that GET with 6; then 400', async () => {
  const outcome = await whenItHappens(async () => {
    const { text } = await poll('/engine.io/');
    const sid = JSON.parse(text.slice(1)).sid;
    const held = poll('/engine.io/', sid);
    await isHeld(sid);
    const close = await poll('/engine.io/', sid, '1');
    assert.equal(close.status, 200);
    const got = await held;
    unknownSid(await poll('/engine.io/', sid));
    // The GET reached the server after the close (it found no session), or a ping answered it
    // before the close came: not the case under test.
    if (got.text === '2' || /Session ID unknown/.test(got.text)) return 'not this time';
    return got.text;
  });
  assert.equal(outcome, '6');
});

test('suite: a second WebSocket handshake on an upgraded sid is accepted, then closed by the server', async () => {
  for (let attempt = 1; ; attempt++) {
    const { sid, ws } = await upgraded();
    const again = new WebSocket(`${srv.url.replace('http', 'ws')}/engine.io/?EIO=4&transport=websocket&sid=${sid}`);
    const outcome = await new Promise((resolve) => {
      let opened = false;
      again.on('open', () => { opened = true; });
      again.on('error', (e) => resolve({ error: e.message }));
      again.on('close', () => resolve({ opened }));
    });
    // The session lost to the suite's 200 ms ping timeout while this client was starved is not
    // the case under test: the same exchange again on a fresh one.
    const lost = outcome.error && /Session ID unknown/.test((await poll('/engine.io/', sid)).text);
    if (lost && attempt < 5) { ws.close(); continue; }
    assert.deepEqual(outcome, { opened: true }, 'accepted (101), then closed');
    ws.send('4still here');
    let echo;
    do echo = await ws.next(); while (echo === '2'); // a ping the suite sent meanwhile
    assert.equal(echo, '4still here', 'the upgraded session goes on');
    ws.close();
    return;
  }
});
