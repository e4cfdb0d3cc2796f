// A large audience's deliveries: the gateway keeps the list of an audience's connected users
// between events (from 64 users up), so these check that every message still reaches exactly
// the pages connected when it is sent, as people connect, open a second page and leave between
// messages, and when nothing changed.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, register, gatewayConnect, eventually, sharedServer } = require('./helpers');

const sockets = [];
const srv = sharedServer({}, sockets);
const MEMBERS = 70; // more than the 64 from which an audience's list is kept

const page = async (who) => {
  const t = await api(srv.url, 'POST', '/api/gateway/ticket', { token: who.token });
  return gatewayConnect(srv.url, { auth: { ticket: t.body.ticket }, transports: ['websocket'] }, sockets);
};
const contents = (s) => s.received.filter((e) => e.name === 'MESSAGE_CREATE').map((e) => e.payload.content);

test('every message reaches exactly the pages connected when it is sent, in an audience of 71 people', async () => {
  const owner = await register(srv.url);
  const created = await api(srv.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'Muitos' } });
  const sid = created.body.server.id;
  const cid = created.body.channels[0].id;
  const code = (await api(srv.url, 'POST', `/api/servers/${sid}/invites`, { token: owner.token, body: {} })).body.code;
  const people = [];
  while (people.length < MEMBERS) people.push(...(await Promise.all([0, 1].map(() => register(srv.url))))); // two at a time: password hashing is bounded
  for (const p of people) assert.equal((await api(srv.url, 'POST', `/api/invites/${code}/join`, { token: p.token })).status, 200);

  const pages = new Map(); // index in people → its pages
  for (let i = 0; i < 60; i++) pages.set(i, [await page(people[i])]);
  const send = async (content) => {
    const r = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: owner.token, body: { content } });
    assert.equal(r.status, 200, r.text);
  };
  const expectReached = async (content, who) => {
    const open = [...who].flatMap((i) => pages.get(i));
    await eventually(() => open.every((s) => contents(s).includes(content)), 5000, `${content} on every open page`);
  };

  await send('um');
  await expectReached('um', pages.keys());
  await send('dois'); // nothing changed: the kept list
  await expectReached('dois', pages.keys());

  // Between messages: ten more connect, one opens a second page, two leave.
  for (let i = 60; i < MEMBERS; i++) pages.set(i, [await page(people[i])]);
  pages.get(5).push(await page(people[5]));
  const gone = [pages.get(1)[0], pages.get(2)[0]];
  for (const s of gone) s.disconnect();
  pages.delete(1);
  pages.delete(2);
  await send('três');
  await expectReached('três', pages.keys());
  await send('quatro');
  await expectReached('quatro', pages.keys());

  for (const s of gone) assert.deepEqual(contents(s), ['um', 'dois']);
  const late = pages.get(65)[0];
  assert.deepEqual(contents(late), ['três', 'quatro']);
  assert.deepEqual(contents(pages.get(5)[1]), ['três', 'quatro']);
  for (const [, list] of pages) for (const s of list) assert.equal(new Set(contents(s)).size, contents(s).length, 'no message twice');
});
