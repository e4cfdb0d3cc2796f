// Link previews: a message's links read by the server after the send (OpenGraph first, a
// redirect followed, an oEmbed when the page offers one and says nothing itself), kept with the message and told to the room's pages live (never to bots),
// its image through the media proxy; `<link>` asks for none, code holds none, the author removes
// them for good, a server turns them off, a page is read once for many messages (the cache), and
// a private address is never read unless the operator allows it.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const { sharedServer, startServer, api, serverWithMembers, appWithBot, install, gatewayConnect, nextEvent, eventually } = require('./helpers');
const { png } = require('./gif');
const { P } = require('./permissions');

const sockets = [];
const srv = sharedServer({ args: ['--rate-limit-scale', '100', '--allow-private-endpoints'] }, sockets);

// A site of our own: what it was asked, and its pages.
const asked = [];
let site;
const IMAGE = png(4, 4);
function page(title, extra = '') {
  return `<!doctype html><html><head><title>ignored title</title>
<meta property="og:title" content="${title}"><meta property="og:description" content="Uma descrição &amp; mais">
<meta property="og:site_name" content="Site de Teste"><meta property="og:image" content="/capa.png">${extra}</head><body>corpo</body></html>`;
}
test.before(async () => {
  site = http.createServer((req, res) => {
    asked.push(req.url);
    if (req.url === '/capa.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(IMAGE);
    if (req.url === '/volta') return res.writeHead(302, { location: '/artigo?via=volta' }).end();
    if (req.url === '/texto') return res.writeHead(200, { 'content-type': 'text/plain' }).end('og:title não é HTML');
    if (req.url === '/video') {
      return res.writeHead(200, { 'content-type': 'text/html' })
        .end('<html><head><link rel="alternate" type="application/json+oembed" href="/oembed?url=video"></head></html>');
    }
    if (req.url === '/oembed?url=video') {
      return res.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ type: 'video', title: 'Um vídeo pelo oEmbed', author_name: 'Canal', provider_name: 'Vídeos', thumbnail_url: at('/capa.png') }));
    }
    if (req.url === '/grande') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(page('Página grande') + 'x'.repeat(2 * 1024 * 1024));
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(`Artigo ${req.url}`));
  });
  await new Promise((ok) => site.listen(0, '127.0.0.1', ok));
});
test.after(() => site.close());
const at = (p) => `http://127.0.0.1:${site.address().port}${p}`;

async function world() {
  const w = await serverWithMembers(srv.url, 1);
  w.cid = w.server.channels[0].id;
  w.path = `/api/servers/${w.sid}/channels/${w.cid}/messages`;
  w.send = (who, content) => api(srv.url, 'POST', w.path, { token: who.token, body: { content } });
  w.previewsOf = async (mid) => (await api(srv.url, 'GET', w.path, { token: w.owner.token })).body.messages.find((m) => m.id === mid).previews;
  return w;
}

test('a link\'s preview comes after the send, to the room\'s pages, with its image through the proxy', async () => {
  const w = await world();
  const [ana] = w.members;
  const info = await appWithBot(srv.url, w.owner, { intents: ['messages.read'] });
  await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
  const page = await gatewayConnect(srv.url, { auth: { ticket: (await api(srv.url, 'POST', '/api/gateway/ticket', { token: ana.token })).body.ticket } }, sockets);
  const told = nextEvent(page, 'MESSAGE_PREVIEWS_UPDATE', 10000);
  const sent = await w.send(w.owner, `leiam ${at('/um')} e também ${at('/volta')}`);
  assert.equal(sent.status, 200, sent.text);
  assert.deepEqual(sent.body.message.previews, [], 'the send does not wait');
  const update = await told;
  assert.equal(update.messageId, sent.body.message.id);
  assert.equal(update.channelId, w.cid);
  assert.deepEqual(update.previews, [
    { url: at('/um'), title: 'Artigo /um', description: 'Uma descrição & mais', siteName: 'Site de Teste', image: at('/capa.png') },
    { url: at('/volta'), title: 'Artigo /artigo?via=volta', description: 'Uma descrição & mais', siteName: 'Site de Teste', image: at('/capa.png') },
  ], 'OpenGraph first; a redirect followed');
  assert.deepEqual(await w.previewsOf(sent.body.message.id), update.previews, 'kept with the message');
  // The image through the media proxy, for someone who can see the message.
  const media = await fetch(`${srv.url}${w.path}/${sent.body.message.id}/media?url=${encodeURIComponent(at('/capa.png'))}`, { headers: { authorization: `Bearer ${ana.token}` } });
  assert.equal(media.status, 200);
  assert.deepEqual(Buffer.from(await media.arrayBuffer()), IMAGE);
  // Bots read previews in history, and get no event for them.
  const after = nextEvent(bot, 'MESSAGE_CREATE');
  await w.send(w.owner, 'depois');
  await after;
  assert.deepEqual(bot.received.filter((e) => e.name === 'MESSAGE_PREVIEWS_UPDATE'), []);
  const history = await api(srv.url, 'GET', w.path, { token: info.botToken });
  assert.equal(history.body.messages.find((m) => m.id === sent.body.message.id).previews.length, 2);
});

test('none for <links>, code, plain text; a page is read once for many messages; a long page is read to its head', async () => {
  const w = await world();
  const before = asked.length;
  const quiet = await w.send(w.owner, `sem prévia <${at('/nao')}> e \`${at('/codigo')}\` e ${at('/texto')}`);
  const big = await w.send(w.owner, at('/grande'));
  await eventually(async () => (await w.previewsOf(big.body.message.id)).length === 1, 10000, 'the long page\'s preview');
  assert.equal((await w.previewsOf(big.body.message.id))[0].title, 'Página grande');
  assert.deepEqual(await w.previewsOf(quiet.body.message.id), [], 'nothing to show');
  assert.ok(!asked.slice(before).some((u) => u === '/nao' || u === '/codigo'), 'never read');
  // The cache: the same link again is not read again.
  const first = await w.send(w.owner, at('/cache'));
  await eventually(async () => (await w.previewsOf(first.body.message.id)).length === 1, 10000, 'the first preview');
  const second = await w.send(w.owner, `de novo ${at('/cache')}`);
  await eventually(async () => (await w.previewsOf(second.body.message.id)).length === 1, 10000, 'the second preview');
  assert.equal(asked.filter((u) => u === '/cache').length, 1, 'read once');
  // A page that says nothing itself but offers an oEmbed: that is read next.
  const video = await w.send(w.owner, at('/video'));
  await eventually(async () => (await w.previewsOf(video.body.message.id)).length === 1, 10000, 'the oEmbed\'s preview');
  assert.deepEqual(await w.previewsOf(video.body.message.id), [{ url: at('/video'), title: 'Um vídeo pelo oEmbed', description: 'Canal', siteName: 'Vídeos', image: at('/capa.png') }]);
});

test('the author removes them for good; a server turns them off', async () => {
  const w = await world();
  const [ana] = w.members;
  const m = (await w.send(ana, at('/remover'))).body.message;
  await eventually(async () => (await w.previewsOf(m.id)).length === 1, 10000, 'its preview');
  const notHers = await api(srv.url, 'DELETE', `${w.path}/${m.id}/previews`, { token: w.owner.token });
  assert.equal(notHers.status, 403, notHers.text);
  const page = await gatewayConnect(srv.url, { auth: { ticket: (await api(srv.url, 'POST', '/api/gateway/ticket', { token: w.owner.token })).body.ticket } }, sockets);
  const told = nextEvent(page, 'MESSAGE_PREVIEWS_UPDATE');
  assert.equal((await api(srv.url, 'DELETE', `${w.path}/${m.id}/previews`, { token: ana.token })).status, 200);
  assert.deepEqual((await told).previews, []);
  assert.deepEqual(await w.previewsOf(m.id), []);
  const off = await api(srv.url, 'PATCH', `/api/servers/${w.sid}`, { token: w.owner.token, body: { linkPreviews: false } });
  assert.equal(off.status, 200, off.text);
  assert.equal(off.body.server.linkPreviews, false);
  const before = asked.length;
  const later = (await w.send(w.owner, at('/desligado'))).body.message;
  await new Promise((ok) => setTimeout(ok, 1500)); // the page would have been asked by now (see the test above)
  assert.deepEqual(await w.previewsOf(later.id), []);
  assert.ok(!asked.slice(before).includes('/desligado'), 'not even read');
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${w.sid}`, { token: w.owner.token, body: { linkPreviews: 'não' } })).status, 400);
});

test('a private address is never read unless the operator allows it', async () => {
  const own = await startServer({ single: true });
  try {
    const w = await serverWithMembers(own.url, 0);
    const path = `/api/servers/${w.sid}/channels/${w.server.channels[0].id}/messages`;
    const before = asked.length;
    const m = await api(own.url, 'POST', path, { token: w.owner.token, body: { content: `interno ${at('/intranet')}` } });
    assert.equal(m.status, 200, m.text);
    await new Promise((ok) => setTimeout(ok, 1500));
    assert.ok(!asked.slice(before).includes('/intranet'), 'the site was never asked');
    const read = (await api(own.url, 'GET', path, { token: w.owner.token })).body.messages.find((x) => x.id === m.body.message.id);
    assert.deepEqual(read.previews, []);
  } finally {
    await own.stop();
  }
});
