// The autocomplete round trip: a person types an option that the bot completes, and the
// suggestions show. The bot is the official socket.io-client, answering from 5,000 names.
//
// 1. API: POST of the autocomplete interaction → INTERACTION_AUTOCOMPLETE on the person's socket
//    (socket.io-client too), N (default 500) one after another: p50/p99, and the server's CPU
//    per round trip (utime + stime from /proc/PID/stat).
// 2. Page: in headless Chromium, a key pressed in "/busca termo=…" → the palette lists the
//    suggestions for it (polled each animation frame), KEYS (default 60) times: p50/p99. The
//    page waits 150 ms after the last key before it asks (its debounce), so that is included.
//
//   PRACA_BIN=build/praca node bench/autocomplete.js
'use strict';
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const { startServer, api, appWithBot, install, serverWithMembers, gatewayConnect, launchChromium } = require('../tests/e2e/helpers');

const N = Number(process.env.N || 500);
const KEYS = Number(process.env.KEYS || 60);
const TICK = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim()) || 100;
const cpuMs = (pid) => { const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return ((Number(f[11]) + Number(f[12])) * 1000) / TICK; };
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1); };

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const NAMES = Array.from({ length: 5000 }, (_, i) => `${LETTERS[i % 26]}${LETTERS[Math.floor(i / 26) % 26]}${LETTERS[Math.floor(i / 676) % 26]} cidade ${i}`);

async function main() {
  const srv = await startServer({ args: ['--rate-limit-scale', '100000', '--access-log=0'] });
  const sockets = [];
  const browser = await launchChromium();
  try {
    const { owner: ana, sid, server } = await serverWithMembers(srv.url, 0);
    const cid = server.channels[0].id;
    const info = await appWithBot(srv.url, ana, { name: 'Busca', intents: ['interactions.receive'] });
    await install(srv.url, ana, info, sid, { permissions: 0 });
    await api(srv.url, 'PUT', '/api/bot/commands', { token: info.botToken, body: { commands: [
      { name: 'busca', description: 'Procura', options: [{ name: 'termo', description: 'O quê', type: 'string', required: true, autocomplete: true }] }] } });
    const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
    bot.on('INTERACTION_CREATE', (i) => {
      if (i.type !== 'autocomplete') return;
      const typed = i.options.find((o) => o.focused).value.toLowerCase();
      const choices = NAMES.filter((n) => n.startsWith(typed)).slice(0, 25).map((n) => ({ name: n, value: n }));
      api(srv.url, 'POST', `/api/bot/interactions/${i.id}/respond`, { token: info.botToken, body: { type: 'autocomplete', data: { choices } } });
    });

    // 1. Over the API.
    const person = await gatewayConnect(srv.url, { auth: { token: ana.token } }, sockets);
    const waits = new Map();
    person.on('INTERACTION_AUTOCOMPLETE', (ev) => { const w = waits.get(ev.choices[0] && ev.choices[0].name.slice(0, 2)); if (w) w(); });
    const once = async (prefix) => {
      const came = new Promise((resolve) => waits.set(prefix, resolve));
      const t0 = process.hrtime.bigint();
      const r = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/interactions`, { token: ana.token,
        body: { type: 'autocomplete', applicationId: info.app.id, commandName: 'busca', focused: 'termo', options: [{ name: 'termo', value: prefix }] } });
      if (r.status !== 202) throw new Error(r.text);
      await came;
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    for (let i = 0; i < 20; i++) await once(LETTERS[i % 26] + LETTERS[(i + 1) % 26]); // warm up
    const before = cpuMs(srv.proc.pid);
    const apiMs = [];
    for (let i = 0; i < N; i++) apiMs.push(await once(LETTERS[i % 26] + LETTERS[Math.floor(i / 26) % 26]));
    const cpu = (cpuMs(srv.proc.pid) - before) / N;
    console.log(JSON.stringify({ measure: 'api round trip', n: N, p50Ms: pct(apiMs, 50), p99Ms: pct(apiMs, 99), serverCpuMsPerRoundTrip: +cpu.toFixed(3) }));

    // 2. On the page.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'session', value: ana.token, url: srv.url }]);
    const page = await context.newPage();
    await page.goto(`${srv.url}/app`);
    await page.waitForSelector('#live.on');
    await page.waitForFunction(() => praca.chat.commands.length === 1);
    await page.focus('#text');
    const pageMs = [];
    for (let i = 0; i < KEYS + 5; i++) {
      const first = LETTERS[i % 26];
      const second = LETTERS[Math.floor(i / 26 + i) % 26];
      await page.fill('#text', `/busca termo=${first}`);
      await page.waitForFunction((f) => { const x = document.querySelector('#palette .palette-item'); return x && x.textContent.startsWith(f); }, first, { polling: 'raf' });
      const t0 = Date.now();
      await page.keyboard.type(second);
      await page.waitForFunction((p) => { const x = document.querySelector('#palette .palette-item'); return x && x.textContent.startsWith(p); }, first + second, { polling: 'raf' });
      if (i >= 5) pageMs.push(Date.now() - t0); // the first few warm the page up
    }
    console.log(JSON.stringify({ measure: 'page keystroke to suggestions', keys: KEYS, p50Ms: pct(pageMs, 50), p99Ms: pct(pageMs, 99), debounceMs: 150 }));
    await context.close();
  } finally {
    for (const s of sockets) s.close();
    await browser.close();
    await srv.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
