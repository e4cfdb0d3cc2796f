// What the voice tests do with pages: join a voice channel from the page, read what a call's
// connections received (chat-call.js's getStats reading), wait until one page hears another,
// and close pages that had no problems.
'use strict';
const assert = require('node:assert/strict');
const { api, eventually } = require('./helpers');

// A new voice channel in sid, made by its owner.
async function voiceChannel(base, owner, sid, name = 'Sala de voz') {
  const ch = await api(base, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name, type: 'voice' } });
  assert.equal(ch.status, 201, ch.text);
  return ch.body.channel.id;
}

async function joinCall(page, vcid) {
  await page.click(`.voice[data-id="${vcid}"] button:has-text("Entrar")`);
  await page.waitForSelector('#call-bar:not([hidden])');
}

// What the page's connections received, by user.
const received = (page) => page.evaluate(async () => (await import('/static/chat-call.js')).received());

// uid's row in the page's list of the channel.
const row = (vcid, uid) => `.voice[data-id="${vcid}"] .voice-people li[data-user="${uid}"]`;

// The page hears uid: the row says connected and speaking, and the connection's getStats() says
// audio bytes keep arriving with a level above silence.
async function hears(page, vcid, uid) {
  await page.waitForSelector(`${row(vcid, uid)}[data-link=connected]`, { timeout: 20000 });
  await page.waitForSelector(`${row(vcid, uid)}.speaking`, { timeout: 20000 });
  const first = (await received(page))[uid];
  await eventually(async () => {
    const now = (await received(page))[uid];
    return now && now.bytes > first.bytes && now.level > 0;
  }, 10000, 'audio bytes and level from the other');
}

// The pages had no script errors, native dialogs or CSP violations; they close.
async function closed(...pages) {
  for (const page of pages) assert.deepEqual(page.problems, []);
  for (const page of pages) await page.context().close();
}

module.exports = { voiceChannel, joinCall, received, row, hears, closed };
