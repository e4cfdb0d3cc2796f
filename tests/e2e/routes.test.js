// `praca routes`: every route with who may call it, its lane, body, limit and whether the limit
// is counted ahead; docs/api.md's "Every route" is that output, word for word.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');
const { BIN } = require('./helpers');

const routes = (...args) => execFileSync(BIN, ['routes', ...args], { encoding: 'utf8' });

test('docs/api.md\'s "Every route" is `praca routes markdown`, word for word', () => {
  const doc = fs.readFileSync(path.join(__dirname, '../../docs/api.md'), 'utf8');
  const start = doc.indexOf('<!-- praca routes markdown -->\n');
  const end = doc.indexOf('<!-- end of praca routes markdown -->');
  assert.ok(start > 0 && end > start, 'the block is in docs/api.md');
  assert.equal(doc.slice(start + '<!-- praca routes markdown -->\n'.length, end), routes('markdown'),
               'run `build/praca routes markdown` and paste it between the markers');
});

test('every route, one per line, with what the tables say of it', () => {
  const rows = routes('markdown').trim().split('\n').slice(2).map((line) => line.split(' | ').map((c) => c.replace(/^\| |`| \|$/g, '')));
  const text = routes().trim().split('\n');
  assert.equal(text.length, rows.length, 'the terminal and Markdown forms list the same routes');
  assert.ok(rows.length >= 120);
  const row = (method, p) => rows.find(([m, rp]) => m === method && rp === p);
  assert.deepEqual(row('POST', '/api/auth/login'), ['POST', '/api/auth/login', 'public', 'hashing', 'small', 'keyed-apart', 'no']);
  assert.deepEqual(row('POST', '/api/servers'), ['POST', '/api/servers', 'person', 'worker', 'small', 'create-server: 10 per hour', 'no']);
  assert.deepEqual(row('POST', '/api/dms/:cid/messages').slice(4), ['upload', 'send: 10 per 10 s', 'no']);
  assert.equal(row('GET', '/api/servers')[5], '—', 'a read counts nothing');
  // Every route that changes something counts a limit, its own or the shared write window.
  for (const [method, p, caller, , , limit] of rows)
    if (method !== 'GET' && method !== 'HEAD') assert.notEqual(limit, '—', `${method} ${p} (${caller}) counts no limit`);
  // What is counted ahead runs on the writer lane.
  for (const [method, p, , lane, , , ahead] of rows) if (ahead === 'yes') assert.equal(lane, 'writer', `${method} ${p}`);
});

test('one rule picks the lane: hashing for a password, the writer for what bots are told by a known caller, a worker else', () => {
  const rows = routes('markdown').trim().split('\n').slice(2).map((line) => line.split(' | ').map((c) => c.replace(/^\| |`| \|$/g, '')));
  const lane = (method, p) => rows.find(([m, rp]) => m === method && rp === p)[3];
  for (const p of ['/api/auth/register', '/api/auth/login', '/api/users/@me/password', '/api/auth/reset-password'])
    assert.equal(lane('POST', p), 'hashing', p);
  assert.equal(lane('DELETE', '/api/users/@me'), 'hashing', 'an account is deleted with its password');
  // MESSAGE_* in a server and GUILD_MEMBER_*: the writer, with the bot's event in the change's transaction.
  for (const [m, p] of [['POST', '/api/servers/:sid/channels/:cid/messages'], ['PATCH', '/api/servers/:sid/channels/:cid/messages/:mid'],
    ['DELETE', '/api/servers/:sid/channels/:cid/messages/:mid'], ['POST', '/api/bot/servers/:sid/channels/:cid/messages'],
    ['PATCH', '/api/bot/servers/:sid/channels/:cid/messages/:mid'], ['POST', '/api/bot/interactions/:id/respond'],
    ['POST', '/api/servers/:sid/join'], ['POST', '/api/invites/:code/join'], ['DELETE', '/api/servers/:sid/members/@me'],
    ['DELETE', '/api/servers/:sid/members/:uid'], ['PUT', '/api/servers/:sid/bans/:uid'],
    ['POST', '/api/oauth2/authorize/:authorizeSessionId/complete'], ['DELETE', '/api/servers/:sid/applications/:appId'],
    ['DELETE', '/api/applications/:id/installs/:serverId'], ['DELETE', '/api/applications/:id']])
    assert.equal(lane(m, p), 'writer', `${m} ${p}`);
  // Bots are told nothing of these, or the caller is known only in the handler: a worker.
  for (const [m, p] of [['POST', '/api/servers/:sid/channels/:cid/messages/:mid/pin'], ['POST', '/api/servers/:sid/channels/:cid/messages/:mid/react'],
    ['POST', '/api/dms/:cid/messages'], ['PATCH', '/api/servers/:sid/channels/:cid'], ['POST', '/api/webhooks/:wid/:token'],
    ['POST', '/api/interactions/:id/:token/followups']])
    assert.equal(lane(m, p), 'worker', `${m} ${p}`);
  for (const [m, p, caller, l] of rows) {
    if (m === 'GET') assert.equal(l, 'worker', `a read runs on a worker: ${p}`);
    if (caller === 'public') assert.notEqual(l, 'writer', `a public route's caller is known only in its handler: ${p}`);
  }
});

test('an unknown argument to `praca routes` is refused', () => {
  const r = spawnSync(BIN, ['routes', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown command or argument/);
});
