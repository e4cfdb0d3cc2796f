// Calls past a mesh, through a real SFU (Debian's Janus), in headless Chromium with fake
// microphones, on whatever store and nodes the run has: with --voice-mesh-max 2, a third person
// moves the call onto the SFU, every page then sends its sound once and hears everyone; one who
// loses CONECTAR_VOZ is out of the SFU's room at once; a camera and a screen reach the others
// through it; a page whose gateway dropped is back in the room. Janus itself is asked who is in
// the room.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const { startServer, api, serverWithMembers, eventually } = require('./helpers');
const { P } = require('./permissions');
const pages = require('./browser');
const { shoot } = pages;
const { startJanus } = require('./janus');
const { voiceChannel, joinCall, received, row, hears, closed, toneFile, startVoiceBot } = require('./voice_pages');

const browser = pages.sharedBrowser();

const onSfu = (page) => page.evaluate(async () => (await import('/static/chat-call.js')).onSfu());
// The room and feed numbers Praça derives from its secret (gateway/voice_sfu.c), to ask Janus.
const number = (secret, text) => {
  const mac = crypto.createHmac('sha256', secret).update(text).digest();
  const v = mac.readBigUInt64BE(0) & ((1n << 53n) - 1n);
  return Number(v || 1n);
};
const roomOf = (secret, cid) => number(secret, `room\n${cid}`);
const feedOf = (secret, cid, uid) => number(secret, `feed\n${cid}\n${uid}`);

test('past the mesh size the call moves to the SFU: everyone hears everyone, video and a dropped gateway, and one who loses CONECTAR_VOZ leaves its room', async () => {
  const janus = await startJanus();
  const srv = await startServer({ args: ['--rate-limit-scale', '10', '--voice-mesh-max', '2', '--sfu-url', janus.api,
                                         '--sfu-ws-url', janus.ws, '--sfu-secret', janus.secret] });
  try {
    const bases = srv.nodes ? srv.nodes.map((n) => n.url) : [srv.url];
    const { owner: ana, sid, members } = await serverWithMembers(bases[0], 2);
    const vcid = await voiceChannel(bases[0], ana, sid);
    const people = [];
    for (const [i, who] of [ana, ...members].entries()) {
      const page = await pages.openApp(browser, bases[i % bases.length], who);
      await joinCall(page, vcid);
      people.push({ who, page });
      if (i === 1) for (const [a, b] of [[0, 1], [1, 0]]) await hears(people[a].page, vcid, people[b].who.user.id);
      if (i === 1) for (const p of people) assert.equal(await onSfu(p.page), false, 'two people: a mesh');
    }
    for (const { page } of people) await eventually(() => onSfu(page), 15000, 'the call on the SFU');
    for (const one of people)
      for (const other of people) if (other !== one) await hears(one.page, vcid, other.who.user.id);
    const room = roomOf(janus.secret, vcid);
    const feeds = people.map((p) => feedOf(janus.secret, vcid, p.who.user.id));
    await eventually(async () => (await janus.participants(room)).sort().join() === [...feeds].sort().join(), 10000,
      'Janus lists the three feeds');
    // Each page sends its sound once (one publisher connection), not once per other person.
    const senders = await people[0].page.evaluate(async () => (await import('/static/chat-call.js')).sending());
    assert.equal(senders, 1);
    await shoot(people[2].page, 'chat-voice-sfu');

    // A camera and a screen reach the others through the SFU as tiles of their kind, and go
    // when turned off.
    const [a, b] = [people[0], people[1]];
    const playing = (page, selector) => page.waitForFunction((sel) => {
      const v = document.querySelector(`${sel} video`);
      return v && v.videoWidth > 0 && v.currentTime > 0.5;
    }, selector, { timeout: 20000 });
    await a.page.click('#call-camera');
    await playing(b.page, `#call-stage .call-tile[data-user="${a.who.user.id}"][data-kind=camera]`);
    await b.page.click('#call-screen');
    await playing(a.page, `#call-stage .call-tile[data-user="${b.who.user.id}"][data-kind=screen]`);
    await playing(people[2].page, `#call-stage .call-tile[data-user="${b.who.user.id}"][data-kind=screen]`);
    await shoot(people[2].page, 'chat-voice-sfu-video');
    await a.page.click('#call-camera');
    await b.page.waitForSelector(`#call-stage .call-tile[data-user="${a.who.user.id}"]`, { state: 'detached', timeout: 20000 });
    await b.page.click('#call-screen');
    await a.page.waitForSelector(`#call-stage .call-tile[data-user="${b.who.user.id}"]`, { state: 'detached', timeout: 20000 });

    // Bia's gateway connection drops: her page joins again, is let into the room again, and
    // everyone hears her (and she them) through the SFU as before.
    await b.page.evaluate(() => praca.view.gateway.ws.close());
    await b.page.waitForSelector('#live:not(.on)');
    await b.page.waitForSelector('#live.on');
    await eventually(() => onSfu(b.page), 15000, 'Bia back on the SFU');
    for (const other of [a, people[2]]) {
      await hears(other.page, vcid, b.who.user.id);
      await hears(b.page, vcid, other.who.user.id);
    }

    // The third person may no longer connect there: the SFU kicks their feed at once.
    const c = people[2];
    const deny = await api(bases[0], 'PUT', `/api/servers/${sid}/channels/${vcid}/overwrites/${c.who.user.id}`,
      { token: ana.token, body: { type: 'member', allow: 0, deny: P.CONECTAR_VOZ } });
    assert.equal(deny.status, 200, deny.text);
    await eventually(async () => !(await janus.participants(room)).includes(feeds[2]), 5000, 'the feed out of the room');
    await c.page.waitForSelector('#call-bar', { state: 'hidden' });
    for (const { page } of people.slice(0, 2)) {
      await page.waitForSelector(row(vcid, c.who.user.id), { state: 'detached' });
      await eventually(async () => !(c.who.user.id in (await received(page))), 5000, 'nothing more from them');
    }
    await hears(a.page, vcid, b.who.user.id); // the two left still hear each other
    await closed(...people.map((p) => p.page));
    await eventually(async () => (await janus.participants(room)).length === 0, 10000, 'the room empties');
  } finally {
    await srv.stop();
    janus.stop();
  }
});

test('a bot in a call on the SFU keeps its own connection to each page: examples/voice_bot.py is heard', async () => {
  const { appWithBot, install } = require('./helpers');
  const janus = await startJanus();
  const srv = await startServer({ args: ['--rate-limit-scale', '10', '--voice-mesh-max', '0', '--sfu-url', janus.api,
                                         '--sfu-ws-url', janus.ws, '--sfu-secret', janus.secret] });
  const { owner: ana, sid } = await serverWithMembers(srv.url, 0);
  const vcid = await voiceChannel(srv.url, ana, sid, 'Música');
  const info = await appWithBot(srv.url, ana, { intents: ['interactions.receive', 'voice.connect'] });
  const perms = P.VER_CANAL | P.ENVIAR_MENSAGENS | P.USAR_COMANDOS | P.CONECTAR_VOZ | P.FALAR;
  assert.equal((await install(srv.url, ana, info, sid, { permissions: perms })).complete.status, 200);
  const bot = await startVoiceBot(srv.nodes ? srv.nodes[0].url : srv.url, info.botToken, toneFile(6));
  try {
    const a = await pages.openApp(browser, srv.url, ana);
    await joinCall(a, vcid);
    await eventually(() => onSfu(a), 15000, 'every call on the SFU');
    const text = (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: ana.token })).body.channels.find((c) => c.type === 'text').id;
    const asked = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${text}/interactions`,
      { token: ana.token, body: { type: 'command', applicationId: info.app.id, commandName: 'tocar' } });
    assert.equal(asked.status, 202, asked.text);
    await hears(a, vcid, info.app.botUserId);
    assert.equal(await onSfu(a), true, 'still on the SFU, the bot beside it');
    await closed(a);
  } finally {
    bot.stop();
    await srv.stop();
    janus.stop();
  }
});
