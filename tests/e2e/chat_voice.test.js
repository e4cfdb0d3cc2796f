// Voice calls in /app, in headless Chromium with a fake microphone: two people in a voice channel
// hear each other (each one's speaking mark lights on the other's page, which only sound that
// arrived can do), mute and deafen reach everyone's list, the call survives the page's gateway
// dropping, and a call through a real TURN server (coturn) works with relays only, while one
// that cannot find a path says so. Screenshots land in tests/e2e/screenshots/.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, appWithBot, install, serverWithMembers, eventually, quiet } = require('./helpers');
const { P } = require('./permissions');
const pages = require('./browser');
const { DESKTOP, shoot } = pages;
const { startTurn } = require('./turn');
const { voiceChannel, joinCall, received, row, hears, closed, toneFile, startVoiceBot } = require('./voice_pages');

const browser = pages.sharedBrowser();
const openApp = (base, who, viewport = DESKTOP) => pages.openApp(browser, base, who, viewport);

// n people of a new server (Ana its owner, then Bia…), each on a page, all joined to a new voice
// channel from it.
async function inACall(base, n = 2) {
  const { owner, sid, members } = await serverWithMembers(base, n - 1);
  const vcid = await voiceChannel(base, owner, sid);
  const people = [];
  for (const who of [owner, ...members]) {
    const page = await openApp(base, who);
    await joinCall(page, vcid);
    people.push({ who, page });
  }
  return { people, sid, vcid };
}

async function twoInACall(base) {
  const { people: [{ who: ana, page: a }, { who: bia, page: b }], sid, vcid } = await inACall(base, 2);
  return { ana, bia, sid, vcid, a, b };
}

test('two people in a voice channel hear each other; mute, deafen and a dropped gateway', async () => {
  const srv = await startServer({ args: ['--rate-limit-scale', '10'] });
  try {
    const { ana, bia, sid, vcid, a, b } = await twoInACall(srv.url);
    await hears(a, vcid, bia.user.id);
    await hears(b, vcid, ana.user.id);
    await a.waitForSelector('#call-bar .call-status:has-text("Voz conectada")');
    await shoot(a, 'chat-voice-call');

    // Bia mutes: her microphone stops at once, and everyone's list says so.
    await b.click('#call-mute');
    await b.waitForSelector('#call-mute[aria-pressed=true]');
    await a.waitForSelector(`${row(vcid, bia.user.id)}:has-text("🔇")`);
    await a.waitForSelector(`${row(vcid, bia.user.id)}:not(.speaking)`);
    await eventually(async () => {
      const m = (await api(srv.url, 'GET', `/api/servers/${sid}/channels/${vcid}/voice-members`, { token: ana.token })).body.members;
      return m.find((x) => x.userId === bia.user.id).muted === true;
    }, 5000, 'Bia muted for the API too');
    // Deafened is muted too, and hearing again gives back the mute she had.
    await b.click('#call-deafen');
    await b.waitForSelector('#call-deafen[aria-pressed=true]');
    await a.waitForSelector(`${row(vcid, bia.user.id)}:has-text("🎧")`);
    assert.equal(await b.$$eval('.call-audio audio', (els) => els.every((e) => e.muted)), true, 'nothing heard while deafened');
    await b.click('#call-deafen');
    await b.waitForSelector('#call-deafen[aria-pressed=false]');
    await b.waitForSelector('#call-mute[aria-pressed=true]');
    await b.click('#call-mute');
    await b.waitForSelector('#call-mute[aria-pressed=false]');
    await a.waitForSelector(`${row(vcid, bia.user.id)}.speaking`, { timeout: 20000 });

    // The options: a microphone to choose (the fake one), Ana's volume for Bia, push-to-talk.
    await b.click('#call-options');
    await b.waitForSelector('#call-mic option', { state: 'attached' });
    await b.selectOption('#call-mic', { index: 0 });
    await a.click('#call-options');
    await a.fill(`#call-options input[type=range][data-user="${bia.user.id}"]`, '40');
    assert.equal(await a.$eval('.call-audio audio', (e) => e.volume), 0.4, 'Bia at 40% on Ana\'s page');
    await b.check('#call-ptt');
    await a.waitForSelector(`${row(vcid, bia.user.id)}:not(.speaking)`);
    await b.waitForSelector('#call-talk');
    await quiet(1500);
    assert.equal(await a.locator(`${row(vcid, bia.user.id)}.speaking`).count(), 0, 'silent until she holds the key');
    await b.click('#room'); // away from any text field
    await b.keyboard.down('Backquote');
    await b.waitForSelector('#call-talk[aria-pressed=true]');
    await a.waitForSelector(`${row(vcid, bia.user.id)}.speaking`, { timeout: 20000 });
    await shoot(b, 'chat-voice-options');
    await b.keyboard.up('Backquote');
    await b.waitForSelector('#call-talk[aria-pressed=false]');
    await b.uncheck('#call-ptt');
    await b.click('#call-options');
    await a.click('#call-options');
    await a.waitForSelector(`${row(vcid, bia.user.id)}[data-quality]`, { timeout: 10000 });

    // Bia's gateway connection drops (a phone changing network): the call goes on, her page is
    // back in the channel's list by itself, and calls Ana again.
    await b.evaluate(() => praca.view.gateway.ws.close());
    await b.waitForSelector('#live:not(.on)');
    await b.waitForSelector('#live.on');
    await eventually(async () => {
      const m = (await api(srv.url, 'GET', `/api/servers/${sid}/channels/${vcid}/voice-members`, { token: ana.token })).body.members;
      return m.length === 2;
    }, 10000, 'Bia back in the channel');
    await b.waitForSelector('#call-bar:not([hidden])');
    await hears(a, vcid, bia.user.id);
    await hears(b, vcid, ana.user.id);

    // Leaving: the bar goes, the other page's list follows, and the media stop.
    await b.click('#call-leave');
    await b.waitForSelector('#call-bar', { state: 'hidden' });
    await a.waitForSelector(row(vcid, bia.user.id), { state: 'detached' });
    assert.equal(await b.$$eval('.call-audio', (els) => els.length), 0);
    await eventually(async () => !(bia.user.id in (await received(a))), 5000, 'Ana hung up on Bia');
    await closed(a, b);
  } finally {
    await srv.stop();
  }
});

// A tile on page whose video plays frames that arrived (its size known, its clock moving).
async function playing(page, selector) {
  await page.waitForSelector(selector, { timeout: 20000 });
  await page.waitForFunction((sel) => {
    const v = document.querySelector(`${sel} video`);
    return v && v.videoWidth > 0 && v.currentTime > 0.5;
  }, selector, { timeout: 20000 });
}

test('a camera and a screen share reach the other page as tiles, and go when turned off', async () => {
  const srv = await startServer({ args: ['--rate-limit-scale', '10'] });
  try {
    const { ana, bia, a, b } = await twoInACall(srv.url);
    await a.click('#call-camera');
    await a.waitForSelector('#call-camera[aria-pressed=true]');
    await playing(a, `#call-stage .call-tile[data-owner=me][data-kind=camera]`);
    await playing(b, `#call-stage .call-tile[data-user="${ana.user.id}"][data-kind=camera]`);
    await b.click('#call-screen');
    await b.waitForSelector('#call-screen[aria-pressed=true]');
    await playing(a, `#call-stage .call-tile[data-user="${bia.user.id}"][data-kind=screen]`);
    assert.match(await a.textContent(`#call-stage .call-tile[data-user="${bia.user.id}"] figcaption`), /^Tela de /);
    await shoot(a, 'chat-voice-video');
    // Off again: the tiles go on both pages, and the stage with the last one.
    await a.click('#call-camera');
    await b.waitForSelector(`#call-stage .call-tile[data-user="${ana.user.id}"]`, { state: 'detached', timeout: 20000 });
    await b.click('#call-screen');
    await a.waitForSelector(`#call-stage .call-tile[data-user="${bia.user.id}"]`, { state: 'detached', timeout: 20000 });
    await a.waitForSelector('#call-stage', { state: 'hidden' });
    await closed(a, b);
  } finally {
    await srv.stop();
  }
});

test('four people in a channel all hear each other; one who loses CONECTAR_VOZ is cut off at once', async () => {
  const srv = await startServer({ args: ['--rate-limit-scale', '10'] });
  try {
    const { people: everyone, sid, vcid } = await inACall(srv.url, 4);
    const [{ who: ana }, { who: bia, page: b }] = everyone;
    for (const one of everyone)
      for (const other of everyone) if (other !== one) await hears(one.page, vcid, other.who.user.id);
    await shoot(everyone[3].page, 'chat-voice-four');

    // Bia may no longer connect there: her page leaves the call, and every other page hangs up
    // on her (the media flow between the pages, so each one stops its own).
    const deny = await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${vcid}/overwrites/${bia.user.id}`,
      { token: ana.token, body: { type: 'member', allow: 0, deny: P.CONECTAR_VOZ } });
    assert.equal(deny.status, 200, deny.text);
    await b.waitForSelector('#call-bar', { state: 'hidden' });
    await b.waitForSelector('.toast:has-text("Você perdeu a permissão")');
    assert.equal(await b.$$eval('.call-audio', (els) => els.length), 0, 'nothing of the call left on her page');
    for (const { page } of everyone.filter((x) => x.page !== b)) {
      await page.waitForSelector(row(vcid, bia.user.id), { state: 'detached' });
      await eventually(async () => !(bia.user.id in (await received(page))), 5000, 'hung up on Bia');
    }
    await closed(...everyone.map((x) => x.page));
  } finally {
    await srv.stop();
  }
});

test('examples/voice_bot.py plays a sound into the channel on /tocar; the page hears it and marks the bot', async () => {
  const srv = await startServer({ args: ['--rate-limit-scale', '10'] });
  const { owner: ana, sid } = await serverWithMembers(srv.url, 0);
  const vcid = await voiceChannel(srv.url, ana, sid, 'Música');
  const info = await appWithBot(srv.url, ana, { intents: ['interactions.receive', 'voice.connect'] });
  const perms = P.VER_CANAL | P.ENVIAR_MENSAGENS | P.USAR_COMANDOS | P.CONECTAR_VOZ | P.FALAR;
  assert.equal((await install(srv.url, ana, info, sid, { permissions: perms })).complete.status, 200);
  const bot = await startVoiceBot(srv.url, info.botToken, toneFile(6));
  try {
    const a = await openApp(srv.url, ana);
    await joinCall(a, vcid);
    const text = (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: ana.token })).body.channels.find((c) => c.type === 'text').id;
    const asked = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${text}/interactions`,
      { token: ana.token, body: { type: 'command', applicationId: info.app.id, commandName: 'tocar' } });
    assert.equal(asked.status, 202, asked.text);
    await a.waitForSelector('.message:has-text("Tocando em Música")', { timeout: 20000 });
    const botId = info.app.botUserId;
    await hears(a, vcid, botId);
    await a.waitForSelector(`${row(vcid, botId)} .voice-bot`);
    await a.waitForSelector('#call-bar .call-bot:has-text("Um bot está ouvindo")');
    await shoot(a, 'chat-voice-bot');
    // The sound over, the bot leaves the channel by itself.
    await a.waitForSelector(row(vcid, botId), { state: 'detached', timeout: 20000 });
    await eventually(() => /done playing/.test(bot.said()), 5000, 'the bot says it is done');
    await closed(a);
  } finally {
    bot.stop();
    await srv.stop();
  }
});

test('through a TURN server only: coturn relays the call with the credentials Praça hands out', async () => {
  const turn = await startTurn();
  const srv = await startServer({ args: ['--turn-url', turn.url, '--turn-secret', turn.secret, '--voice-relay-only'] });
  try {
    const { ana, bia, vcid, a, b } = await twoInACall(srv.url);
    await hears(a, vcid, bia.user.id);
    await hears(b, vcid, ana.user.id);
    // Only relayed candidates were allowed, so the sound went through coturn, which says whose
    // credentials it took: the username is EXPIRY:USER_ID.
    assert.match(turn.log(), new RegExp(`${ana.user.id}`), 'coturn took Ana\'s credential');
    assert.match(turn.log(), new RegExp(`${bia.user.id}`), 'coturn took Bia\'s credential');
    await closed(a, b);
  } finally {
    await srv.stop();
    turn.stop();
  }
});

test('a TURN credential of ten seconds is renewed by the pages, and the relayed call goes on', async () => {
  const turn = await startTurn();
  const srv = await startServer({ args: ['--turn-url', turn.url, '--turn-secret', turn.secret, '--voice-relay-only', '--turn-ttl-seconds', '10'] });
  try {
    const { ana, bia, vcid, a, b } = await twoInACall(srv.url);
    await hears(a, vcid, bia.user.id);
    // Two credentials of Ana's reached coturn (each username is EXPIRY:USER_ID): the join's,
    // then the renewed one, and the sound still arrives through the relay after it.
    const credentials = () => new Set(turn.log().match(new RegExp(`\\d+:${ana.user.id}`, 'g')) || []);
    await eventually(() => credentials().size >= 2, 20000, 'a second credential of Ana used');
    await hears(a, vcid, bia.user.id);
    await hears(b, vcid, ana.user.id);
    assert.equal((await received(a))[bia.user.id].via, 'relay');
    await closed(a, b);
  } finally {
    await srv.stop();
    turn.stop();
  }
});

test('a call that finds no path says so in the page, and names what is missing', async () => {
  const turn = await startTurn({ secret: 'o-segredo-certo' });
  // Praça signs with another secret: coturn refuses every credential, and relays are all there is.
  const srv = await startServer({ args: ['--turn-url', turn.url, '--turn-secret', 'outro-segredo', '--voice-relay-only'] });
  try {
    const { ana, bia, vcid, a, b } = await twoInACall(srv.url);
    await a.waitForSelector(`${row(vcid, bia.user.id)}[data-link=failed]`, { timeout: 60000 });
    await a.waitForSelector(`#call-bar .call-status.failed:has-text("${bia.user.username}")`);
    assert.match(await a.textContent('#call-bar .call-status'), /servidor TURN/);
    await shoot(a, 'chat-voice-failed');
    await closed(a, b);
  } finally {
    await srv.stop();
    turn.stop();
  }
});
