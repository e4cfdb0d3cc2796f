// A send with a link: the send's own latency against a send without one, and how long its
// preview takes to reach a page, against a local site (so the figure is praca's, not a network's).
//
// N sends one at a time (default 300) of each kind: plain text; a link to a page never read
// before (the page is read: a cache miss); the same link again (the cache). A page of another
// member is connected and notes when each MESSAGE_PREVIEWS_UPDATE arrives. Server CPU per send is
// read from its threads' schedstat.
//
//   PRACA_BIN=build/praca node bench/previews.js
'use strict';
const http = require('node:http');
const { startServer, api, serverWithMembers, gatewayConnect } = require('../tests/e2e/helpers');
const { cpuNs, pct } = require('./measure');

const N = Number(process.env.N || 300);

(async () => {
  const site = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head>
<meta property="og:title" content="Página ${req.url}"><meta property="og:description" content="Uma página de teste com uma descrição de tamanho comum, como as de notícias.">
<meta property="og:site_name" content="Site local"><meta property="og:image" content="/capa.png"></head><body>${'<p>texto</p>'.repeat(500)}</body></html>`);
  });
  await new Promise((ok) => site.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${site.address().port}`;
  const srv = await startServer({ single: true, args: ['--rate-limit-scale', '100000', '--access-log=0', '--allow-private-endpoints'] });
  const sockets = [];
  try {
    const w = await serverWithMembers(srv.url, 1);
    const path = `/api/servers/${w.sid}/channels/${w.server.channels[0].id}/messages`;
    const page = await gatewayConnect(srv.url, { auth: { ticket: (await api(srv.url, 'POST', '/api/gateway/ticket', { token: w.members[0].token })).body.ticket }, transports: ['websocket'] }, sockets);
    const arrivals = new Map();
    page.on('MESSAGE_PREVIEWS_UPDATE', (e) => arrivals.set(e.messageId, process.hrtime.bigint()));
    const pid = srv.proc.pid;
    const out = { n: N };
    for (const [kind, text] of [['plain', () => 'uma mensagem sem link nenhum, de tamanho comum'],
      ['newLink', (i) => `olhem isto ${base}/artigo-${i}`], ['cachedLink', () => `de novo ${base}/artigo-0`]]) {
      const sendMs = [];
      const sent = [];
      const c0 = cpuNs(pid);
      for (let i = 0; i < N; i++) {
        const t = process.hrtime.bigint();
        const r = await api(srv.url, 'POST', path, { token: w.owner.token, body: { content: text(i) } });
        if (r.status !== 200) throw new Error(r.text);
        sendMs.push(Number(process.hrtime.bigint() - t) / 1e6);
        sent.push([r.body.message.id, t]);
      }
      const deadline = Date.now() + 10000;
      while (kind !== 'plain' && sent.some(([id]) => !arrivals.has(id)) && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 50));
      const cpuUs = (cpuNs(pid) - c0) / 1e3 / N;
      const previewMs = sent.filter(([id]) => arrivals.has(id)).map(([id, t]) => Number(arrivals.get(id) - t) / 1e6);
      out[kind] = {
        sendP50Ms: +pct(sendMs, 0.5).toFixed(2), sendP99Ms: +pct(sendMs, 0.99).toFixed(2), cpuUsPerSend: Math.round(cpuUs),
        ...(kind === 'plain' ? {} : { previews: `${previewMs.length} of ${N}`, previewP50Ms: +pct(previewMs, 0.5).toFixed(2), previewP99Ms: +pct(previewMs, 0.99).toFixed(2) }),
      };
    }
    console.log(JSON.stringify(out));
  } finally {
    for (const s of sockets) s.disconnect();
    await srv.stop();
    site.close();
  }
})().catch((e) => { console.error(e); process.exit(1); });
