// What the voice tests do with pages: join a voice channel from the page, read what a call's
// connections received (chat-call.js's getStats reading), wait until one page hears another,
// close pages that had no problems, and make the sound a bot plays.
'use strict';
const assert = require('node:assert/strict');
const { api, eventually, tempDir } = require('./helpers');

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

// A WAV file of `seconds` of a 440 Hz tone (16-bit mono, 48 kHz): the sound the bot plays.
function toneFile(seconds) {
  const rate = 48000, n = rate * seconds, data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) data.writeInt16LE(Math.round(12000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0); head.writeUInt32LE(36 + data.length, 4); head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16); head.writeUInt16LE(1, 20); head.writeUInt16LE(1, 22); head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 2, 28); head.writeUInt16LE(2, 32); head.writeUInt16LE(16, 34);
  head.write('data', 36); head.writeUInt32LE(data.length, 40);
  const file = require('node:path').join(tempDir(), 'som.wav');
  require('node:fs').writeFileSync(file, Buffer.concat([head, data]));
  return file;
}

// examples/voice_bot.py for the bot of `token` against url, playing `sound`, once it says it is
// connected; `said()` is everything it printed so far, `stop()` ends it.
async function startVoiceBot(url, token, sound) {
  const path = require('node:path');
  const { spawn } = require('node:child_process');
  const proc = spawn('/usr/bin/python3', [path.join(__dirname, '..', '..', 'examples', 'voice_bot.py')], {
    env: { PATH: process.env.PATH, PRACA_URL: url, PRACA_BOT_TOKEN: token, PRACA_SOUND: sound },
    stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  proc.stdout.on('data', (d) => { said += d; });
  proc.stderr.on('data', (d) => { said += d; });
  const bot = { said: () => said, stop: () => proc.kill('SIGTERM') };
  try {
    await eventually(() => /connected as/.test(said), 20000, 'the bot connected');
  } catch (e) {
    bot.stop();
    throw new Error(`${e.message} (it said: ${said})`);
  }
  return bot;
}

module.exports = { voiceChannel, joinCall, received, row, hears, closed, toneFile, startVoiceBot };
