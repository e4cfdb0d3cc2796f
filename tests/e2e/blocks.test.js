// Blocking: a person blocks another; no direct message goes between them, either way, until
// the block is lifted; the list shows whom one blocked.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, register, acquaint, sharedServer } = require('./helpers');

const srv = sharedServer({ args: ['--rate-limit-scale', '100'] });
const call = (who, method, path, body) => api(srv.url, method, path, { token: who.token, body });

test('a block refuses direct messages both ways, opening one included, until it is lifted', async () => {
  const ana = await register(srv.url);
  const bia = await register(srv.url);
  await acquaint(srv.url, ana, bia);
  const dm = (await call(ana, 'POST', '/api/users/@me/dms', { userId: bia.user.id })).body.channel;
  assert.equal((await call(bia, 'POST', `/api/dms/${dm.id}/messages`, { content: 'oi' })).status, 200);
  // Ana blocks Bia.
  assert.equal((await call(ana, 'PUT', `/api/users/@me/blocks/${bia.user.id}`)).status, 200);
  assert.equal((await call(ana, 'PUT', `/api/users/@me/blocks/${bia.user.id}`)).status, 200, 'twice is once');
  const list = (await call(ana, 'GET', '/api/users/@me/blocks')).body.blocks;
  assert.deepEqual(list.map((b) => [b.userId, b.username]), [[bia.user.id, bia.user.username]]);
  assert.deepEqual((await call(bia, 'GET', '/api/users/@me/blocks')).body.blocks, [], "one's blocks are one's own");
  const words = 'Vocês não podem conversar: um de vocês bloqueou o outro';
  for (const [who, path, body] of [
    [bia, `/api/dms/${dm.id}/messages`, { content: 'ainda aí?' }],
    [ana, `/api/dms/${dm.id}/messages`, { content: 'nem eu' }],
    [bia, '/api/users/@me/dms', { userId: ana.user.id }],
    [ana, '/api/users/@me/dms', { userId: bia.user.id }],
  ]) {
    const r = await call(who, 'POST', path, body);
    assert.deepEqual([r.status, r.body.error], [403, words], path);
  }
  // What was said before stays readable.
  assert.equal((await call(ana, 'GET', `/api/dms/${dm.id}/messages`)).body.messages.length, 1);
  // Refusals of the routes themselves.
  let r = await call(ana, 'PUT', `/api/users/@me/blocks/${ana.user.id}`);
  assert.deepEqual([r.status, r.body.error], [400, 'uid: não é possível bloquear a si mesmo']);
  r = await call(ana, 'PUT', '/api/users/@me/blocks/01a1fe3b-0000-7000-8000-000000000000');
  assert.equal(r.status, 404);
  // Lifted: they talk again.
  assert.equal((await call(ana, 'DELETE', `/api/users/@me/blocks/${bia.user.id}`)).status, 200);
  assert.equal((await call(bia, 'POST', `/api/dms/${dm.id}/messages`, { content: 'de volta' })).status, 200);
  assert.deepEqual((await call(ana, 'GET', '/api/users/@me/blocks')).body.blocks, []);
});
