// The SFU's side of voice over the gateway, with a real Janus: past --voice-mesh-max a person's
// voice:join answer carries their place on the SFU and everyone in the call hears whose each
// feed is (voice:media), while bots' events keep the shape the platform pins; the room token is
// good for that room only and only while its session lasts; one who joined the room without
// Praça is kicked at the call's next change; an SFU that does not answer refuses the join.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const { startServer, api, appWithBot, install, serverWithMembers, gatewayConnect, eventually, quiet, freePort } = require('./helpers');
const { P } = require('./permissions');
const { startJanus } = require('./janus');

const sockets = [];
let janus, srv;
test.before(async () => {
  janus = await startJanus();
  srv = await startServer({ args: ['--rate-limit-scale', '10', '--voice-mesh-max', '2', '--sfu-url', janus.api,
                                   '--sfu-ws-url', janus.ws, '--sfu-secret', janus.secret] });
});
test.after(async () => {
  for (const s of sockets) s.disconnect();
  await srv.stop();
  janus.stop();
});

const connect = (token, base = srv.url) => gatewayConnect(base, { auth: { token } }, sockets);
const ask = (s, name, payload) => s.timeout(5000).emitWithAck(name, payload);
const number = (text) => {
  const v = crypto.createHmac('sha256', janus.secret).update(text).digest().readBigUInt64BE(0) & ((1n << 53n) - 1n);
  return Number(v || 1n);
};

// Resolves once socket s has heard that n are in the call: its node knows each join (with several
// nodes, a join on another reaches it through Redis), so a join it answers next counts them all.
function heard(s, vcid, n) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`never heard of ${n} in the call`)), 5000);
    const on = (p) => {
      if (p.channelId !== vcid || p.participants.length < n) return;
      clearTimeout(timer);
      s.off('channel_voice:participants_update', on);
      resolve();
    };
    s.on('channel_voice:participants_update', on);
  });
}

// A server with a voice channel, three people and a bot with voice.connect, all connected.
async function world() {
  const w = await serverWithMembers(srv.url, 2);
  const ch = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'Sala', type: 'voice' } });
  assert.equal(ch.status, 201, ch.text);
  const info = await appWithBot(srv.url, w.owner, { intents: ['voice.connect'] });
  const inst = await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.CONECTAR_VOZ | P.FALAR });
  assert.equal(inst.complete.status, 200, inst.complete.text);
  const people = [w.owner, ...w.members];
  const bases = srv.nodes ? srv.nodes.map((n) => n.url) : [srv.url];
  const sockets = await Promise.all(people.map((p, i) => connect(p.token, bases[i % bases.length])));
  const bot = await connect(info.botToken);
  return { ...w, vcid: ch.body.channel.id, people, sockets, bot, botId: info.app.botUserId };
}

test('the third joiner moves the call to the SFU: answers carry a place there, voice:media names the feeds, bots see the pinned shapes', async () => {
  const w = await world();
  const [a, b, c] = w.sockets;
  const botJoined = await ask(w.bot, 'voice:join', { channelId: w.vcid });
  assert.equal(botJoined.ok, true);
  assert.equal(botJoined.sfu, undefined, 'a bot is never handed a place on the SFU');
  const two = heard(b, w.vcid, 2);
  const first = await ask(a, 'voice:join', { channelId: w.vcid });
  assert.equal(first.ok, true);
  assert.equal(first.sfu, undefined, 'two participants: a mesh');
  await two;
  const third = await ask(b, 'voice:join', { channelId: w.vcid });
  assert.equal(third.ok, true, JSON.stringify(third));
  const [uidA, uidB] = [w.people[0].user.id, w.people[1].user.id];
  const room = number(`room\n${w.vcid}`);
  assert.deepEqual({ ...third.sfu, sessionToken: undefined, expiresAt: undefined },
    { url: janus.ws, room, feedId: number(`feed\n${w.vcid}\n${uidB}`), token: crypto.createHmac('sha256', janus.secret).update(`token\n${w.vcid}\n${uidB}`).digest('hex').slice(0, 32),
      sessionToken: undefined, expiresAt: undefined });
  assert.match(third.sfu.sessionToken, /^\d+,janus,janus\.plugin\.videoroom:[A-Za-z0-9+/]+=*$/);
  assert.ok(third.sfu.expiresAt > Date.now() + 500 * 1000 && third.sfu.expiresAt <= Date.now() + 601 * 1000, 'lives --turn-ttl-seconds');
  assert.equal(third.media, 'sfu');
  assert.deepEqual(third.bots, [w.botId]);
  assert.deepEqual(third.feeds.map((f) => f.userId).sort(), [uidA, uidB].sort());
  // The first person hears of the move and of whose each feed is; the bot hears nothing new.
  await eventually(() => a.received.some((e) => e.name === 'voice:media' && e.payload.feeds.length === 2), 5000, 'voice:media to the first person');
  const media = a.received.find((e) => e.name === 'voice:media').payload;
  assert.deepEqual(Object.keys(media).sort(), ['bots', 'channelId', 'feeds', 'media', 'serverId']);
  assert.equal(media.feeds.find((f) => f.userId === uidA).feedId, number(`feed\n${w.vcid}\n${uidA}`));
  await quiet(300);
  assert.ok(!w.bot.received.some((e) => e.name === 'voice:media'), 'bots get no voice:media');
  for (const e of w.bot.received.filter((x) => x.name === 'channel_voice:participants_update'))
    assert.deepEqual(Object.keys(e.payload).sort(), ['channelId', 'participants', 'serverId'], 'the platform\'s shape');
  // The first person joins again for their own place (as their page does), and gets it.
  const again = await ask(a, 'voice:join', { channelId: w.vcid });
  assert.equal(again.sfu.feedId, number(`feed\n${w.vcid}\n${uidA}`));

  // The room token admits its owner's feed, in that room only, and nobody else's token does.
  const tokenB = third.sfu.token;
  const wrong = await janus.joinAs({ room, feed: third.sfu.feedId, token: 'f'.repeat(32) });
  assert.equal(wrong.joined, false);
  assert.equal(wrong.error_code, 433, 'unauthorized');
  wrong.close();
  const otherRoom = await janus.joinAs({ room: room + 1, feed: third.sfu.feedId, token: tokenB });
  assert.equal(otherRoom.joined, false, 'no such room, or not let in');
  otherRoom.close();
  const rightOne = await janus.joinAs({ room, feed: third.sfu.feedId, token: tokenB });
  assert.equal(rightOne.joined, true);

  // Once B leaves, the token is off the list and the feed is kicked.
  assert.equal((await ask(b, 'voice:leave', { channelId: w.vcid })).ok, true);
  await eventually(async () => rightOne.kicked(), 5000, 'the feed kicked when its session ended');
  rightOne.close();
  const after = await janus.joinAs({ room, feed: third.sfu.feedId, token: tokenB });
  assert.equal(after.joined, false, 'a session that ended leaves no way in');
  after.close();
  await ask(a, 'voice:leave', { channelId: w.vcid });
  await ask(w.bot, 'voice:leave', { channelId: w.vcid });
  await eventually(async () => (await janus.participants(room)).length === 0, 5000, 'the room empties');
});

test('one who joined the room with a feed of their own is kicked at the call\'s next change', async () => {
  const w = await world();
  const joined = [];
  const two = heard(w.sockets[2], w.vcid, 2);
  for (const s of w.sockets.slice(0, 2)) joined.push(await ask(s, 'voice:join', { channelId: w.vcid }));
  await two;
  joined.push(await ask(w.sockets[2], 'voice:join', { channelId: w.vcid }));
  const place = joined[2].sfu;
  assert.ok(place, 'three people: the SFU');
  // C's page joins the room under a feed number Praça did not give it (C holds a real token).
  const intruder = await janus.joinAs({ room: place.room, feed: 4242, token: place.token });
  assert.equal(intruder.joined, true, 'Janus cannot tell: the token is good');
  assert.ok((await janus.participants(place.room)).includes(4242));
  await ask(w.sockets[0], 'voice:leave', { channelId: w.vcid });
  await eventually(async () => !(await janus.participants(place.room)).includes(4242), 5000, 'the feed Praça did not give kicked');
  intruder.close();
  for (const s of w.sockets.slice(1)) await ask(s, 'voice:leave', { channelId: w.vcid });
});

test('an SFU that does not answer refuses the join that needs it, and leaves nobody listed', async () => {
  const port = await freePort();
  const own = await startServer({ args: ['--voice-mesh-max', '0', '--sfu-url', `http://127.0.0.1:${port}/janus`,
                                         '--sfu-ws-url', `ws://127.0.0.1:${port}`, '--sfu-secret', 'segredo-de-dezesseis'] });
  try {
    const w = await serverWithMembers(own.url, 0);
    const ch = await api(own.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'Sala', type: 'voice' } });
    const s = await gatewayConnect(own.url, { auth: { token: w.owner.token } }, sockets);
    const r = await ask(s, 'voice:join', { channelId: ch.body.channel.id });
    assert.deepEqual(r, { ok: false, status: 503, error: 'O servidor de mídia não respondeu; tente entrar de novo' });
    // The refused session is taken back on the node that answered; another node learns it from the
    // log, so two reads in a row (one per node when there are two) must both find nobody.
    const nobody = async () => {
      const listed = await api(own.url, 'GET', `/api/servers/${w.sid}/channels/${ch.body.channel.id}/voice-members`, { token: w.owner.token });
      assert.equal(listed.status, 200, listed.text);
      return listed.body.members.length === 0;
    };
    await eventually(async () => (await nobody()) && (await nobody()), 5000, 'nobody listed in the refused call');
    // The pages may connect to the SFU's origin, and to nowhere else new.
    const app = await fetch(`${own.url}/app`);
    assert.match(app.headers.get('content-security-policy'), new RegExp(`connect-src 'self' ws://127\\.0\\.0\\.1:${port};`));
  } finally {
    await own.stop();
  }
});
