// A real Web Push service on the loopback (the npm package web-push-testing: it checks each
// request's VAPID token and decrypts its body), with every request it took kept raw, and a
// decryption of our own (RFC 8291) so a test reads what a browser would.
'use strict';
const crypto = require('node:crypto');
const { PushApiModel } = require('web-push-testing/src/PushApiModel');
const WebPushTestingServer = require('web-push-testing/src/server');
const { freePort } = require('./helpers');

async function startPushService() {
  const model = new PushApiModel();
  const port = await freePort();
  const server = new WebPushTestingServer(model, port);
  const log = console.log;
  console.log = () => {}; // it announces its port
  try { server.startServer(); } finally { console.log = log; }
  await new Promise((resolve) => (server._server.listening ? resolve() : server._server.once('listening', resolve)));
  const received = []; // {hash, headers, body}, in the order they came
  const accept = model.handleNotification.bind(model);
  model.handleNotification = (hash, headers, body) => {
    received.push({ hash, headers, body: Buffer.from(body) });
    return accept(hash, headers, body);
  };
  const url = `http://localhost:${port}`;
  return {
    model, received, url,
    // A device's subscription for the application server key given (what PushManager.subscribe
    // returns in a browser), with its private key kept here for decrypting.
    async subscribe(applicationServerKey) {
      const r = await fetch(`${url}/subscribe`, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ applicationServerKey }) });
      const { data } = await r.json();
      return { endpoint: data.endpoint, keys: data.keys, hash: data.clientHash };
    },
    // What reached one device, decrypted by us, as objects.
    messages(sub) {
      const s = model.subscriptions[sub.hash];
      return received.filter((m) => m.hash === sub.hash).map((m) => JSON.parse(decrypt(m.body, s.subscriptionDh, Buffer.from(s.auth, 'base64url'))));
    },
    expire(sub) { model.expireSubscription(sub.hash); },
    close: () => new Promise((resolve) => server._server.close(resolve)),
  };
}

// RFC 8291 on one aes128gcm record (RFC 8188): the device's side.
function decrypt(body, ecdh, authSecret) {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const senderKey = body.subarray(21, 21 + idlen);
  const sealed = body.subarray(21 + idlen);
  const hkdf = (s, ikm, info, len) => Buffer.from(crypto.hkdfSync('sha256', ikm, s, info, len));
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), senderKey]);
  const ikm = hkdf(authSecret, ecdh.computeSecret(senderKey), info, 32);
  const key = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const d = crypto.createDecipheriv('aes-128-gcm', key, nonce);
  d.setAuthTag(sealed.subarray(sealed.length - 16));
  const plain = Buffer.concat([d.update(sealed.subarray(0, sealed.length - 16)), d.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error('not the last record');
  return plain.subarray(0, end).toString('utf8');
}

module.exports = { startPushService, decrypt };
