// Channel categories: a channel of type "category" with a position and overwrites of its own;
// text, forum and voice channels name one as parentId. A channel made in a category starts synced
// with it and follows its overwrites until its own are changed (as on Discord); moving, syncing
// again, placing many at once, and deleting a category (its channels stay, in none).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { sharedServer, api, serverWithMembers } = require('./helpers');
const { P } = require('./permissions');

const srv = sharedServer({ args: ['--rate-limit-scale', '100'] });

async function made(w, body) {
  const r = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body });
  assert.equal(r.status, 201, r.text);
  return r.body.channel;
}
const tree = async (w, who) => (await api(srv.url, 'GET', `/api/servers/${w.sid}`, { token: who.token })).body.channels;
const patch = (w, id, body, who = w.owner) => api(srv.url, 'PATCH', `/api/servers/${w.sid}/channels/${id}`, { token: who.token, body });
const overwrite = (w, id, body) => api(srv.url, 'PUT', `/api/servers/${w.sid}/channels/${id}/overwrites/${w.sid}`, { token: w.owner.token, body: { type: 'role', ...body } });
const send = (w, who, cid) => api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: who.token, body: { content: 'oi' } });

test('a category\'s overwrite flows to its synced channels and not to one whose own changed', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const [ana] = w.members;
  const cat = await made(w, { name: 'Equipe', type: 'category' });
  assert.deepEqual([cat.type, cat.parentId, cat.overwrites], ['category', null, []]);
  const synced = await made(w, { name: 'avisos', parentId: cat.id });
  const own = await made(w, { name: 'bate-papo', parentId: cat.id });
  const voice = await made(w, { name: 'sala', type: 'voice', parentId: cat.id });
  assert.equal(synced.parentId, cat.id);
  assert.equal(synced.permissionsSynced, true, 'made in a category: synced');
  assert.equal(voice.permissionsSynced, true);
  // bate-papo's own overwrite: it is no longer synced.
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${w.sid}/channels/${own.id}/overwrites/${ana.user.id}`, { token: w.owner.token, body: { type: 'member', allow: P.ENVIAR_MENSAGENS } })).status, 200);
  const mine = (await tree(w, w.owner)).find((c) => c.id === own.id);
  assert.equal(mine.permissionsSynced, false);

  // The category stops @everyone from speaking: avisos and sala follow; bate-papo does not.
  const put = await overwrite(w, cat.id, { deny: P.ENVIAR_MENSAGENS });
  assert.equal(put.status, 200, put.text);
  assert.deepEqual(put.body.channel.overwrites.map((o) => [o.targetId, o.deny]), [[w.sid, P.ENVIAR_MENSAGENS]]);
  const after = await tree(w, w.owner);
  const of = (id) => after.find((c) => c.id === id);
  assert.deepEqual(of(synced.id).overwrites.map((o) => o.deny), [P.ENVIAR_MENSAGENS], 'copied to the synced channel');
  assert.deepEqual(of(voice.id).overwrites.map((o) => o.deny), [P.ENVIAR_MENSAGENS]);
  assert.deepEqual(of(own.id).overwrites.map((o) => o.targetId), [ana.user.id], 'the unsynced channel keeps its own');
  assert.equal((await send(w, ana, synced.id)).status, 403, 'the member may no longer speak in the synced channel');
  assert.equal((await send(w, ana, own.id)).status, 200, 'and still may in the unsynced one');

  // Taken back on the category: taken back on its synced channels.
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${w.sid}/channels/${cat.id}/overwrites/${w.sid}`, { token: w.owner.token })).status, 200);
  assert.deepEqual((await tree(w, w.owner)).find((c) => c.id === synced.id).overwrites, []);
  assert.equal((await send(w, ana, synced.id)).status, 200);

  // Hidden from @everyone: the synced channel and the category go from the member's tree.
  await overwrite(w, cat.id, { deny: P.VER_CANAL });
  const seen = (await tree(w, ana)).map((c) => c.id);
  assert.ok(!seen.includes(synced.id) && !seen.includes(voice.id));
  assert.ok(seen.includes(own.id) && seen.includes(cat.id), 'a category shows while a channel in it is seen');

  // Synced again on request: bate-papo takes the category's overwrites in place of its own.
  const again = await patch(w, own.id, { syncPermissions: true });
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.channel.permissionsSynced, true);
  assert.deepEqual(again.body.channel.overwrites.map((o) => [o.targetId, o.deny]), [[w.sid, P.VER_CANAL]]);
  const none = (await tree(w, ana)).map((c) => c.id);
  assert.ok(!none.includes(cat.id), 'no channel of it seen, nor the category');
});

test('moving, placing many at once, and deleting a category', async () => {
  const w = await serverWithMembers(srv.url, 0);
  const a = await made(w, { name: 'A', type: 'category' });
  const b = await made(w, { name: 'B', type: 'category' });
  const x = await made(w, { name: 'x', parentId: a.id });
  const y = await made(w, { name: 'y', type: 'forum' });
  assert.equal(y.parentId, null);
  assert.equal(y.permissionsSynced, false);

  const moved = await patch(w, x.id, { parentId: b.id });
  assert.equal(moved.status, 200, moved.text);
  assert.deepEqual([moved.body.channel.parentId, moved.body.channel.permissionsSynced], [b.id, false], 'moved: not synced unless asked');
  const out = await patch(w, x.id, { parentId: null });
  assert.equal(out.body.channel.parentId, null);
  const movedSynced = await patch(w, x.id, { parentId: a.id, syncPermissions: true });
  assert.equal(movedSynced.body.channel.permissionsSynced, true);

  const placed = await api(srv.url, 'PATCH', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { channels: [
    { id: b.id, position: 0 }, { id: a.id, position: 1 }, { id: y.id, position: 0, parentId: b.id }, { id: x.id, position: 1, parentId: b.id }] } });
  assert.equal(placed.status, 200, placed.text);
  const by = (id) => placed.body.channels.find((c) => c.id === id);
  assert.deepEqual([by(b.id).position, by(a.id).position], [0, 1]);
  assert.deepEqual([by(y.id).parentId, by(y.id).position, by(x.id).parentId, by(x.id).position], [b.id, 0, b.id, 1]);
  assert.equal(by(x.id).permissionsSynced, false, 'moved to another category by a drag: no longer synced');

  const other = await serverWithMembers(srv.url, 0);
  const foreign = (await api(srv.url, 'POST', `/api/servers/${other.sid}/channels`, { token: other.owner.token, body: { name: 'F', type: 'category' } })).body.channel;
  const bad = [
    [{ channels: [] }, /^channels:/], [{ channels: 'x' }, /^channels:/], [{}, /^channels:/],
    [{ channels: [{ id: foreign.id, position: 0 }] }, /^channels:/],
    [{ channels: [{ id: x.id, position: -1 }] }, /^position:/],
    [{ channels: [{ id: x.id, position: 0, parentId: foreign.id }] }, /^parentId:/],
    [{ channels: [{ id: x.id, position: 0, parentId: y.id }] }, /^parentId:/],
  ];
  for (const [body, why] of bad) {
    const r = await api(srv.url, 'PATCH', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body });
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.match(r.body.error, why, JSON.stringify(body));
  }
  for (const [body, why] of [[{ name: 'Z', type: 'category', parentId: a.id }, /^parentId:/], [{ name: 'z', parentId: foreign.id }, /^parentId:/],
    [{ name: 'z', parentId: y.id }, /^parentId:/], [{ name: 'z', type: 'grupo' }, /^type:/]]) {
    const r = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body });
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.match(r.body.error, why);
  }
  assert.equal((await patch(w, a.id, { parentId: b.id })).status, 400, 'a category holds no category');
  assert.equal((await patch(w, y.id, { parentId: null, syncPermissions: true })).status, 400, 'nothing to sync with');
  assert.equal((await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${a.id}/messages`, { token: w.owner.token, body: { content: 'oi' } })).status, 404, 'no messages in a category');

  const renamed = await patch(w, a.id, { name: 'Arquivo', position: 5 });
  assert.equal(renamed.status, 200, renamed.text);
  assert.deepEqual([renamed.body.channel.name, renamed.body.channel.position], ['Arquivo', 5]);

  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${w.sid}/channels/${b.id}`, { token: w.owner.token })).status, 200);
  const left = await tree(w, w.owner);
  assert.ok(!left.some((c) => c.id === b.id));
  for (const id of [x.id, y.id]) {
    const c = left.find((z) => z.id === id);
    assert.deepEqual([c.parentId, c.permissionsSynced], [null, false], 'its channels stay, in none');
  }
});

test('categories need GERENCIAR_CANAIS, and a server holds 50', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const denied = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.members[0].token, body: { name: 'Minha', type: 'category' } });
  assert.equal(denied.status, 403);
  const cats = [];
  for (let i = 0; i < 50; i++) cats.push(await made(w, { name: `C${i}`, type: 'category' }));
  const over = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'C50', type: 'category' } });
  assert.equal(over.status, 400);
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${w.sid}/channels`, { token: w.members[0].token, body: { channels: [{ id: cats[0].id, position: 3 }] } })).status, 403);
  assert.equal((await patch(w, cats[0].id, { name: 'meu' }, w.members[0])).status, 403);
});
