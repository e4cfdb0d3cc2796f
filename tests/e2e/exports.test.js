// "Baixar meus dados": an archive of what a person has on Praça, made off the request path and
// downloaded by that person only: their account, their messages anywhere, their conversations
// (both sides), the files they sent and their picture, as a tar of JSON and files.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { api, register, acquaint, upload, eventually, sharedServer } = require('./helpers');

const srv = sharedServer({});
const call = (who, method, p, body) => api(srv.url, method, p, { token: who.token, body });
const PNG = fs.readFileSync(path.join(__dirname, 'fixtures', 'note.png'));

async function ready(who) {
  let list;
  await eventually(async () => {
    list = (await call(who, 'GET', '/api/users/@me/exports')).body.exports;
    return list[0].status === 'ready' || list[0].status;
  }, 20000, 'the archive ready');
  return list[0];
}

// The archive's entries, read by tar: {name: Buffer}.
function untar(data) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'praca-export-'));
  const file = path.join(dir, 'a.tar');
  fs.writeFileSync(file, data);
  const listed = spawnSync('tar', ['-tf', file], { encoding: 'utf8' });
  assert.equal(listed.status, 0, listed.stderr);
  const out = {};
  for (const name of listed.stdout.trim().split('\n'))
    out[name] = spawnSync('tar', ['-xOf', file, name]).stdout;
  fs.rmSync(dir, { recursive: true });
  return out;
}

test('the archive holds the account, every message the person wrote, their conversations, files and picture', async () => {
  const ana = await register(srv.url);
  const bia = await register(srv.url);
  const sid = await acquaint(srv.url, ana, bia);
  const cid = (await call(ana, 'GET', `/api/servers/${sid}`)).body.channels[0].id;
  await call(ana, 'PATCH', '/api/users/@me', { displayName: 'Ana Arquivista', about: 'Guardo tudo.' });
  for (const content of ['primeira', 'segunda']) await call(ana, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { content });
  await call(bia, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { content: 'da bia, não vai' });
  const sent = await upload(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, ana.token, { content: 'com anexo' },
                            [{ name: 'notas.txt', data: Buffer.from('lista de compras\n'), type: 'text/plain' }]);
  assert.equal(sent.status, 200, sent.text);
  const dm = (await call(ana, 'POST', '/api/users/@me/dms', { userId: bia.user.id })).body.channel;
  await call(ana, 'POST', `/api/dms/${dm.id}/messages`, { content: 'oi, Bia' });
  await call(bia, 'POST', `/api/dms/${dm.id}/messages`, { content: 'oi, Ana' });
  const form = new FormData();
  form.append('avatar', new Blob([PNG], { type: 'image/png' }), 'eu.png');
  assert.equal((await fetch(`${srv.url}/api/users/@me/avatar`, { method: 'PUT', headers: { authorization: `Bearer ${ana.token}` }, body: form })).status, 200);

  const started = await call(ana, 'POST', '/api/users/@me/exports');
  assert.equal(started.status, 202, started.text);
  assert.equal(started.body.export.status, 'pending');
  const made = await ready(ana);
  assert.equal(made.id, started.body.export.id);
  assert.ok(made.size > 0 && made.readyAt);

  const url = `${srv.url}/api/users/@me/exports/${made.id}/archive`;
  const res = await fetch(url, { headers: { authorization: `Bearer ${ana.token}` } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/x-tar');
  assert.match(res.headers.get('content-disposition'), /^attachment; filename="praca-[0-9a-f]{8}\.tar"/);
  const entries = untar(Buffer.from(await res.arrayBuffer()));
  const fileId = sent.body.message.attachments[0].id;
  assert.deepEqual(Object.keys(entries).sort(), ['praca/account.json', 'praca/dms.jsonl', `praca/files/${fileId}`, 'praca/files.json', 'praca/messages.jsonl', 'praca/picture.webp'].sort());
  const account = JSON.parse(entries['praca/account.json']);
  assert.deepEqual([account.user.id, account.user.displayName, account.user.about], [ana.user.id, 'Ana Arquivista', 'Guardo tudo.']);
  assert.deepEqual(account.servers.map((s) => s.id), [sid]);
  assert.equal(account.sessions.length, 1);
  const lines = (name) => entries[name].toString().trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines('praca/messages.jsonl').map((m) => m.content), ['primeira', 'segunda', 'com anexo', 'oi, Bia']);
  assert.deepEqual(lines('praca/dms.jsonl').map((m) => [m.fromId, m.content]), [[ana.user.id, 'oi, Bia'], [bia.user.id, 'oi, Ana']]);
  const files = JSON.parse(entries['praca/files.json']);
  assert.deepEqual(files.map((f) => [f.id, f.filename, f.path]), [[fileId, 'notas.txt', `files/${fileId}`]]);
  assert.equal(entries[`praca/files/${fileId}`].toString(), 'lista de compras\n');
  assert.equal(entries['praca/picture.webp'].subarray(0, 4).toString(), 'RIFF');

  // Nobody else downloads it; a second archive may follow once this one is ready.
  assert.equal((await fetch(url, { headers: { authorization: `Bearer ${bia.token}` } })).status, 404);
  assert.equal((await fetch(`${srv.url}/api/users/@me/exports/00000000-0000-7000-8000-000000000000/archive`, { headers: { authorization: `Bearer ${ana.token}` } })).status, 404);
  assert.equal((await fetch(url)).status, 401);
});

test('three archives a day per person', async () => {
  const cida = await register(srv.url);
  for (let i = 0; i < 3; i++) {
    assert.equal((await call(cida, 'POST', '/api/users/@me/exports')).status, 202);
    await ready(cida);
  }
  assert.equal((await call(cida, 'POST', '/api/users/@me/exports')).status, 429);
  assert.equal((await call(cida, 'GET', '/api/users/@me/exports')).body.exports.length, 3);
});
