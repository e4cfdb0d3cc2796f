// A real SFU for the tests (Debian's Janus with its VideoRoom plugin), on free ports in a folder
// of its own, set up with deploy/janus/'s files: signed tokens for every request (token_auth_secret),
// rooms made only with the admin key, its HTTP API for Praça and its WebSocket for the pages,
// both on loopback. `participants(room)` asks it who is in a room, as the tests' own check.
'use strict';
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { eventually, freePort, tempDir } = require('./helpers');

const DEPLOY = path.resolve(__dirname, '../../deploy/janus');

function signed(secret) {
  const data = `${Math.floor(Date.now() / 1000) + 60},janus,janus.plugin.videoroom`;
  return `${data}:${crypto.createHmac('sha1', secret).update(data).digest('base64')}`;
}

async function startJanus({ secret = 'segredo-do-janus-de-teste' } = {}) {
  const [http, ws] = [await freePort(), await freePort()];
  const dir = tempDir('praca-janus-');
  const rtp = 20000 + (http % 20000);
  // deploy/janus's files, with this test's secret, ports and folder.
  const files = {};
  for (const name of fs.readdirSync(DEPLOY).filter((n) => n.endsWith('.jcfg'))) {
    files[name] = fs.readFileSync(path.join(DEPLOY, name), 'utf8')
      .replace('configs_folder = "/etc/janus"', `configs_folder = "${dir}"`)
      .replace(/"CHANGE-ME"/g, `"${secret}"`)
      .replace('"CHANGE-ME-TOO"', `"${crypto.randomBytes(16).toString('hex')}"`)
      .replace('rtp_port_range = "20000-40000"', `rtp_port_range = "${rtp}-${rtp + 400}"`)
      .replace('port = 8088', `port = ${http}`)
      .replace('ws_port = 8188', `ws_port = ${ws}`);
  }
  assert.equal(Object.keys(files).length, 4, 'deploy/janus holds the four files Janus reads');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const proc = spawn('/usr/bin/janus', ['-F', dir, '-C', path.join(dir, 'janus.jcfg'), '-o'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stdout.on('data', (d) => { log += d; });
  proc.stderr.on('data', (d) => { log += d; });
  const up = (port) => new Promise((resolve) => {
    const c = net.connect(port, '127.0.0.1', () => { c.end(); resolve(true); }).on('error', () => resolve(false));
  });
  await eventually(async () => (await up(http)) && (await up(ws)), 15000, 'Janus up');
  const api = `http://127.0.0.1:${http}/janus`;
  const post = async (url, body) => (await fetch(url, { method: 'POST', body: JSON.stringify({ ...body, transaction: 't', token: signed(secret) }) })).json();
  return {
    api,
    ws: `ws://127.0.0.1:${ws}`,
    secret,
    pid: proc.pid,
    log: () => log,
    signed: () => signed(secret),
    // The feed IDs in a room now ([] when there is no such room).
    async participants(room) {
      const session = (await post(api, { janus: 'create' })).data.id;
      const handle = (await post(`${api}/${session}`, { janus: 'attach', plugin: 'janus.plugin.videoroom' })).data.id;
      const r = await post(`${api}/${session}/${handle}`, { janus: 'message', body: { request: 'listparticipants', room } });
      await post(`${api}/${session}`, { janus: 'destroy' });
      return (r.plugindata.data.participants || []).map((p) => p.id);
    },
    // A page of its own making: joins room as a publisher over the WebSocket, as a page would,
    // with the room token given (and a valid Janus token); { joined, error_code, close }.
    async joinAs({ room, feed, token }) {
      const WebSocket = require('ws');
      const sock = new WebSocket(`ws://127.0.0.1:${ws}`, 'janus-protocol');
      await new Promise((resolve, reject) => { sock.once('open', resolve); sock.once('error', reject); });
      const replies = [];
      sock.on('message', (d) => replies.push(JSON.parse(d)));
      let n = 0;
      const send = async (msg, pick) => {
        const transaction = `j${++n}`;
        sock.send(JSON.stringify({ ...msg, transaction, token: signed(secret) }));
        await eventually(() => replies.some((r) => r.transaction === transaction && pick(r)), 5000, `Janus's answer to ${msg.janus}`);
        return replies.find((r) => r.transaction === transaction && pick(r));
      };
      const session = (await send({ janus: 'create' }, () => true)).data.id;
      const handle = (await send({ janus: 'attach', session_id: session, plugin: 'janus.plugin.videoroom' }, () => true)).data.id;
      const r = await send({ janus: 'message', session_id: session, handle_id: handle,
                             body: { request: 'join', ptype: 'publisher', room, id: feed, token } }, (x) => x.janus !== 'ack');
      const data = r.plugindata ? r.plugindata.data : { error_code: r.error && r.error.code };
      return { joined: data.videoroom === 'joined', error_code: data.error_code, close: () => sock.close(),
               kicked: () => replies.some((x) => x.plugindata && x.plugindata.data.leaving === 'ok' && x.plugindata.data.reason === 'kicked') };
    },
    stop: () => { proc.kill(); fs.rmSync(dir, { recursive: true, force: true }); },
  };
}

module.exports = { startJanus };
