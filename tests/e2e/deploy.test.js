// deploy/nginx/praca.conf in front of a real praca, as the README installs it: HTTPS, the
// redirect from HTTP, the gateway over WebSocket and long-polling, and the client's address
// through X-Forwarded-For (--trusted-proxy). Only the ports and the certificate differ.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const https = require('node:https');
const http = require('node:http');
const { spawn, spawnSync } = require('node:child_process');
const { startServer, appWithBot, install, serverWithMembers, uniqueName, freePort, tempDir } = require('./helpers');
const { startJanus } = require('./janus');

const NGINX = '/usr/sbin/nginx';
const CONF = path.resolve(__dirname, '../../deploy/nginx/praca.conf');


// One request from a chosen loopback address; {status, headers, body}.
function request(url, { method = 'GET', body, localAddress = '127.0.0.1', token } = {}) {
  const u = new URL(url);
  const lib = u.protocol === 'https:' ? https : http;
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = lib.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, localAddress,
      rejectUnauthorized: false, headers: { ...(text && { 'content-type': 'application/json' }), ...(token && { authorization: `Bearer ${token}` }) } }, (res) => {
      let data = '';
      res.on('data', (d) => { data += d; });
      res.on('end', () => {
        let json = null;
        try { json = JSON.parse(data); } catch { /* not JSON */ }
        resolve({ status: res.statusCode, headers: res.headers, body: json });
      });
    });
    req.on('error', reject);
    req.end(text);
  });
}

test('nginx with deploy/nginx/praca.conf: HTTPS, WebSocket and polling gateway, the client address, Janus at /janus', { skip: !fs.existsSync(NGINX) && 'nginx is not installed' }, async () => {
  const dir = tempDir('praca-nginx-');
  const srv = await startServer({ args: ['--trusted-proxy', '127.0.0.1', '--logins-per-address', '2'] });
  const janus = await startJanus();
  let nginx;
  const sockets = [];
  try {
    const cert = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { encoding: 'utf8' });
    assert.equal(cert.status, 0, cert.stderr);
    const [httpsPort, httpPort] = [await freePort(), await freePort()];
    const site = fs.readFileSync(CONF, 'utf8')
      .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${srv.port};`)
      .replace('proxy_pass http://127.0.0.1:8188;', `proxy_pass http://127.0.0.1:${new URL(janus.ws).port};`)
      .replace(/^\s*listen \[::\].*$/gm, '')
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`)
      .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
      .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${dir}/cert.pem;`)
      .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${dir}/key.pem;`);
    fs.writeFileSync(path.join(dir, 'site.conf'), site);
    fs.writeFileSync(path.join(dir, 'nginx.conf'), `pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events {}
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;
  include ${dir}/site.conf;
}
`);
    const check = spawnSync(NGINX, ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf')], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
    nginx = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' });
    const base = `https://127.0.0.1:${httpsPort}`;
    for (let i = 0; ; i++) {
      try { if ((await request(base + '/api/health')).status === 200) break; } catch (e) { if (i > 100) throw e; }
      await new Promise((r) => setTimeout(r, 50));
    }

    const plain = await request(`http://127.0.0.1:${httpPort}/app`);
    assert.equal(plain.status, 301);
    assert.equal(plain.headers.location, `https://127.0.0.1/app`);

    // The client's own address reaches praca: two wrong logins from 127.0.0.5 use up its window,
    // while 127.0.0.6 (through the same nginx) still has its own.
    const login = (from) => request(base + '/api/auth/login', { method: 'POST', body: { username: uniqueName('n'), password: 'senha-secreta-1' }, localAddress: from });
    assert.equal((await login('127.0.0.5')).status, 401);
    assert.equal((await login('127.0.0.5')).status, 401);
    assert.equal((await login('127.0.0.5')).status, 429);
    assert.equal((await login('127.0.0.6')).status, 401);
    assert.match(srv.stderr, /route=\/api\/auth\/login status=429 .*peer=127\.0\.0\.5/);

    // A bot over WebSocket and a person's page over long-polling, both through nginx.
    const w = await serverWithMembers(srv.url, 0);
    const info = await appWithBot(srv.url, w.owner, { intents: ['messages.read'] });
    assert.equal((await install(srv.url, w.owner, info, w.sid, { permissions: 256 | 512 })).complete.status, 200);
    const { io } = require('socket.io-client');
    const connect = (auth, transports) => new Promise((resolve, reject) => {
      const s = io(base, { auth, transports, rejectUnauthorized: false, reconnection: false });
      sockets.push(s);
      s.on('connect', () => resolve(s));
      s.on('connect_error', reject);
    });
    const bot = await connect({ token: info.botToken }, ['websocket']);
    const person = await connect({ token: w.owner.token }, ['polling']);
    const got = (s) => new Promise((resolve) => s.on('MESSAGE_CREATE', (m) => resolve(m.content)));
    const [toBot, toPerson] = [got(bot), got(person)];
    const cid = w.server.channels[0].id;
    const sent = await request(`${base}/api/bot/servers/${w.sid}/channels/${cid}/messages`, { method: 'POST', token: info.botToken, body: { content: 'pelo nginx' } });
    assert.equal(sent.status, 200);
    assert.equal(await toBot, 'pelo nginx');
    assert.equal(await toPerson, 'pelo nginx');
    assert.equal(person.io.engine.transport.name, 'polling');

    // A page's Janus session through nginx's /janus, with a token signed as Praça signs them.
    const WebSocket = require('ws');
    const ws = new WebSocket(`wss://127.0.0.1:${httpsPort}/janus`, 'janus-protocol', { rejectUnauthorized: false });
    await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
    const answer = new Promise((resolve) => ws.once('message', (d) => resolve(JSON.parse(d))));
    ws.send(JSON.stringify({ janus: 'create', transaction: 'n1', token: janus.signed() }));
    assert.equal((await answer).janus, 'success');
    ws.close();
  } finally {
    janus.stop();
    for (const s of sockets) s.disconnect();
    if (nginx) { nginx.kill('SIGTERM'); await new Promise((r) => nginx.on('exit', r)); }
    const r = await srv.stop();
    assert.equal(r.code, 0, srv.stderr);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('deploy/local-cluster.sh: two nodes over a throwaway PostgreSQL and Redis, one conversation', { skip: (!fs.existsSync('/usr/bin/redis-server') && 'redis-server is not installed') || (!fs.readdirSync('/usr/lib').includes('postgresql') && 'postgresql is not installed') }, async () => {
  const script = path.resolve(__dirname, '../../deploy/local-cluster.sh');
  const dir = tempDir('praca-cluster-');
  const ports = [await freePort(), await freePort()];
  const env = { ...process.env, PORTS: ports.join(' '), PRACA_BIN: require('./helpers').BIN };
  const sockets = [];
  try {
    const start = spawnSync(script, ['start', dir], { encoding: 'utf8', env });
    assert.equal(start.status, 0, start.stderr);
    const [one, two] = start.stdout.trim().split('\n');
    assert.deepEqual([one, two], ports.map((p) => `http://127.0.0.1:${p}`));
    // Registered through one node, a person signs in through the other: one database.
    const { api, register } = require('./helpers');
    const owner = await register(one);
    const created = await api(two, 'POST', '/api/servers', { token: owner.token, body: { name: 'Dois nós' } });
    assert.equal(created.status, 201, created.text);
    const info = await appWithBot(two, owner, { intents: ['messages.read'] });
    assert.equal((await install(one, owner, info, created.body.server.id, { permissions: 256 | 512 })).complete.status, 200);
    const { io } = require('socket.io-client');
    const bot = io(two, { auth: { token: info.botToken }, transports: ['websocket'], reconnection: false });
    sockets.push(bot);
    await new Promise((resolve, reject) => { bot.on('connect', resolve); bot.on('connect_error', reject); });
    const got = new Promise((resolve) => bot.on('MESSAGE_CREATE', (m) => resolve(m.content)));
    const cid = created.body.channels[0].id;
    const sent = await api(one, 'POST', `/api/servers/${created.body.server.id}/channels/${cid}/messages`, { token: owner.token, body: { content: 'de um nó ao outro' } });
    assert.equal(sent.status, 200, sent.text);
    assert.equal(await got, 'de um nó ao outro');
  } finally {
    for (const s of sockets) s.disconnect();
    const stop = spawnSync(script, ['stop', dir], { encoding: 'utf8', env });
    assert.equal(stop.status, 0, stop.stderr);
    assert.equal(fs.existsSync(dir), false);
  }
});
