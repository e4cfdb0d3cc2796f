// Polls: a message sent with a poll (by a person or a bot), votes that replace one's choices and
// move the counts, one choice unless the poll takes several, MESSAGE_POLL_UPDATE to people live
// (never to bots), the reader's own choices in history, the end by the author, votes after the
// end refused, and every bad part of a poll named.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { sharedServer, api, serverWithMembers, appWithBot, install, gatewayConnect, nextEvent } = require('./helpers');
const { P } = require('./permissions');

const sockets = [];
const srv = sharedServer({ args: ['--rate-limit-scale', '100'] }, sockets);
const ticket = async (who) => (await api(srv.url, 'POST', '/api/gateway/ticket', { token: who.token })).body.ticket;

const LUNCH = { question: 'Onde almoçamos?', answers: [{ text: 'Pizza', emoji: '🍕' }, { text: 'Sushi' }, { text: 'Feijoada' }] };

async function world(members = 2) {
  const w = await serverWithMembers(srv.url, members);
  const cid = w.server.channels[0].id;
  w.cid = cid;
  w.messages = `/api/servers/${w.sid}/channels/${cid}/messages`;
  w.send = (who, body) => api(srv.url, 'POST', w.messages, { token: who.token, body });
  w.vote = (who, mid, answerIds) => api(srv.url, 'PUT', `${w.messages}/${mid}/poll/vote`, { token: who.token, body: { answerIds } });
  return w;
}

test('a person sends a poll; votes move the counts, a changed vote moves them back, and pages hear it live', async () => {
  const w = await world(2);
  const [ana, bia] = w.members;
  const sent = await w.send(w.owner, { poll: LUNCH });
  assert.equal(sent.status, 200, sent.text);
  const m = sent.body.message;
  assert.equal(m.content, '', 'a poll needs no text');
  assert.equal(m.type, 'poll');
  assert.equal(m.poll.question, 'Onde almoçamos?');
  assert.deepEqual(m.poll.answers, [
    { id: 1, text: 'Pizza', emoji: '🍕', count: 0 },
    { id: 2, text: 'Sushi', emoji: null, count: 0 },
    { id: 3, text: 'Feijoada', emoji: null, count: 0 },
  ]);
  assert.equal(m.poll.multiple, false);
  assert.equal(m.poll.ended, false);
  assert.equal(m.poll.voters, 0);
  const hours = (Date.parse(m.poll.endsAt) - Date.parse(m.createdAt)) / 3600e3;
  assert.ok(Math.abs(hours - 24) < 0.01, `ends a day later by default (${hours} h)`);

  const page = await gatewayConnect(srv.url, { auth: { ticket: await ticket(bia) } }, sockets);
  const heard = nextEvent(page, 'MESSAGE_POLL_UPDATE');
  const first = await w.vote(ana, m.id, [2]);
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(first.body.poll.answers.map((a) => a.count), [0, 1, 0]);
  assert.deepEqual(first.body.poll.myVotes, [2]);
  assert.equal(first.body.poll.voters, 1);
  const live = await heard;
  assert.equal(live.messageId, m.id);
  assert.equal(live.channelId, w.cid);
  assert.deepEqual(live.poll.answers.map((a) => a.count), [0, 1, 0]);
  assert.equal(live.poll.myVotes, undefined, 'each page keeps its own choices');

  assert.equal((await w.vote(bia, m.id, [2])).body.poll.voters, 2);
  const changed = await w.vote(ana, m.id, [1]);
  assert.deepEqual(changed.body.poll.answers.map((a) => a.count), [1, 1, 0], 'her vote moved');
  assert.equal(changed.body.poll.voters, 2);
  const back = await w.vote(bia, m.id, []);
  assert.deepEqual(back.body.poll.answers.map((a) => a.count), [1, 0, 0], 'taken back');
  assert.deepEqual(back.body.poll.myVotes, []);
  assert.equal(back.body.poll.voters, 1);

  // History carries the counts, and each reader's own choices.
  const read = async (who) => (await api(srv.url, 'GET', w.messages, { token: who.token })).body.messages.find((x) => x.id === m.id).poll;
  assert.deepEqual((await read(ana)).myVotes, [1]);
  assert.deepEqual((await read(bia)).myVotes, []);
  assert.deepEqual((await read(w.owner)).answers.map((a) => a.count), [1, 0, 0]);
  const one = await api(srv.url, 'GET', `${w.messages}/${m.id}/poll`, { token: ana.token });
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(one.body.poll.myVotes, [1]);
});

test('several choices only when the poll takes them; bad choices and bad polls are named', async () => {
  const w = await world(1);
  const [ana] = w.members;
  const many = (await w.send(w.owner, { content: 'Quais dias?', poll: { question: 'Dias', multiple: true, durationHours: 1, answers: [{ text: 'Seg' }, { text: 'Ter' }, { text: 'Qua' }] } })).body.message;
  assert.equal(many.content, 'Quais dias?');
  const both = await w.vote(ana, many.id, [3, 1]);
  assert.deepEqual(both.body.poll.myVotes, [1, 3]);
  assert.deepEqual(both.body.poll.answers.map((a) => a.count), [1, 0, 1]);
  assert.equal(both.body.poll.voters, 1, 'one person, however many choices');
  const single = (await w.send(w.owner, { poll: LUNCH })).body.message;
  for (const [ids, why] of [[[1, 2], 'uma resposta só'], [[4], 'IDs de respostas'], [[0], 'IDs de respostas'], [['1'], 'IDs de respostas'], [null, 'IDs de respostas']]) {
    const r = await w.vote(ana, single.id, ids);
    assert.equal(r.status, 400, JSON.stringify(ids));
    assert.match(r.body.error, new RegExp(`^answerIds: .*${why}`));
  }
  assert.equal((await w.vote(ana, many.id, [1, 1])).status, 400, 'no answer twice');

  const bad = [
    [{ question: 'Q', answers: [{ text: 'só uma' }] }, 'poll.answers'],
    [{ question: 'Q', answers: Array.from({ length: 11 }, (_, i) => ({ text: `r${i}` })) }, 'poll.answers'],
    [{ question: '', answers: [{ text: 'a' }, { text: 'b' }] }, 'poll.question'],
    [{ question: 'x'.repeat(301), answers: [{ text: 'a' }, { text: 'b' }] }, 'poll.question'],
    [{ question: 'Q', answers: [{ text: 'a' }, { text: 'b'.repeat(56) }] }, 'poll.answers'],
    [{ question: 'Q', answers: [{ text: 'a' }, { text: 'b', emoji: 'não' }] }, 'poll.answers'],
    [{ question: 'Q', answers: [{ text: 'a' }, { text: 'b' }], durationHours: 169 }, 'poll.durationHours'],
    [{ question: 'Q', answers: [{ text: 'a' }, { text: 'b' }], multiple: 'sim' }, 'poll.multiple'],
    ['enquete', 'poll'],
  ];
  for (const [poll, field] of bad) {
    const r = await w.send(w.owner, { poll });
    assert.equal(r.status, 400, JSON.stringify(poll));
    assert.ok(r.body.error.startsWith(`${field}: `), r.body.error);
  }
  const plain = (await w.send(w.owner, { content: 'sem enquete' })).body.message;
  assert.equal(plain.poll, null);
  assert.equal(plain.type, 'text');
  assert.equal((await w.vote(ana, plain.id, [1])).status, 404, 'a message without a poll');
  assert.equal((await api(srv.url, 'GET', `${w.messages}/${plain.id}/poll`, { token: ana.token })).status, 404);
});

test('the author ends the poll: counts are final and later votes are refused', async () => {
  const w = await world(1);
  const [ana] = w.members;
  const m = (await w.send(w.owner, { poll: LUNCH })).body.message;
  await w.vote(ana, m.id, [3]);
  const end = (who) => api(srv.url, 'POST', `${w.messages}/${m.id}/poll/end`, { token: who.token });
  const notHers = await end(ana);
  assert.equal(notHers.status, 403, notHers.text);
  const ended = await end(w.owner);
  assert.equal(ended.status, 200, ended.text);
  assert.equal(ended.body.poll.ended, true);
  assert.deepEqual(ended.body.poll.answers.map((a) => a.count), [0, 0, 1]);
  assert.ok(Date.parse(ended.body.poll.endsAt) <= Date.now() + 1000);
  const late = await w.vote(ana, m.id, [1]);
  assert.equal(late.status, 400, late.text);
  assert.equal(late.body.error, 'poll: a enquete já terminou');
  assert.equal((await end(w.owner)).status, 400, 'ended once');
  const history = (await api(srv.url, 'GET', w.messages, { token: ana.token })).body.messages.find((x) => x.id === m.id);
  assert.equal(history.poll.ended, true);
  assert.deepEqual(history.poll.myVotes, [3], 'her choice stays hers');
});

test('a bot sends a poll and reads its results; it cannot vote and hears no votes', async () => {
  const w = await world(1);
  const [ana] = w.members;
  const info = await appWithBot(srv.url, w.owner, { intents: ['messages.read'] });
  await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
  const created = nextEvent(bot, 'MESSAGE_CREATE');
  const sent = await api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${w.cid}/messages`, { token: info.botToken, body: { poll: { question: 'Qual sabor?', answers: [{ text: 'Uva' }, { text: 'Limão', emoji: '🍋' }], durationHours: 2 } } });
  assert.equal(sent.status, 200, sent.text);
  const m = sent.body.message;
  assert.equal((await created).poll.question, 'Qual sabor?', 'the poll comes with MESSAGE_CREATE');
  assert.equal((await w.vote(ana, m.id, [2])).status, 200);
  assert.equal((await w.vote({ token: info.botToken }, m.id, [1])).status, 403, 'bots do not vote');
  const read = await api(srv.url, 'GET', `${w.messages}/${m.id}/poll`, { token: info.botToken });
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body.poll.answers.map((a) => a.count), [0, 1]);
  assert.deepEqual(read.body.poll.myVotes, []);
  const history = await api(srv.url, 'GET', w.messages, { token: info.botToken });
  assert.deepEqual(history.body.messages.find((x) => x.id === m.id).poll.answers.map((a) => a.count), [0, 1]);
  const ended = await api(srv.url, 'POST', `${w.messages}/${m.id}/poll/end`, { token: info.botToken });
  assert.equal(ended.status, 200, 'the bot ends its own poll');
  // A message after the vote, to know the bot's stream has caught up past it.
  const after = nextEvent(bot, 'MESSAGE_CREATE');
  await w.send(w.owner, { content: 'depois' });
  await after;
  assert.deepEqual(bot.received.filter((e) => e.name === 'MESSAGE_POLL_UPDATE'), [], 'no vote events for bots');
});

test('a poll in a thread; a channel the reader cannot see hides its poll', async () => {
  const w = await world(1);
  const [ana] = w.members;
  const root = (await w.send(w.owner, { content: 'fio' })).body.message;
  const thread = await api(srv.url, 'POST', `${w.messages}/${root.id}/threads`, { token: w.owner.token, body: { name: 'Enquetes' } });
  assert.ok([200, 201].includes(thread.status), thread.text);
  const tid = thread.body.channel.id;
  const inThread = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${tid}/messages`, { token: w.owner.token, body: { poll: LUNCH } });
  assert.equal(inThread.status, 200, inThread.text);
  const vote = await api(srv.url, 'PUT', `/api/servers/${w.sid}/channels/${tid}/messages/${inThread.body.message.id}/poll/vote`, { token: ana.token, body: { answerIds: [1] } });
  assert.equal(vote.status, 200, vote.text);
  const page = (await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${tid}/messages`, { token: ana.token })).body.messages;
  assert.deepEqual(page.find((x) => x.id === inThread.body.message.id).poll.myVotes, [1]);

  const m = (await w.send(w.owner, { poll: LUNCH })).body.message;
  const closed = await api(srv.url, 'PUT', `/api/servers/${w.sid}/channels/${w.cid}/overwrites/${ana.user.id}`, { token: w.owner.token, body: { type: 'member', deny: P.VER_CANAL } });
  assert.equal(closed.status, 200, closed.text);
  const refused = await w.vote(ana, m.id, [1]);
  assert.equal(refused.status, 403, refused.text);
  assert.equal((await api(srv.url, 'GET', `${w.messages}/${m.id}/poll`, { token: ana.token })).status, 403);
});
