// The people simulator (bench/people.js driving build/people-sim), small: 100 people with a
// page's socket each act for a few seconds as its model says, and every message sent reaches
// every member once; then the same through a restart of the server halfway, where every page
// has to come back by itself, resume where it was, and nobody has to sign in again.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');

function simulate(env) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bench', 'people.js')], {
    encoding: 'utf8', timeout: 240000, maxBuffer: 1 << 24,
    env: { ...process.env, PEOPLE: '100', SERVER_SIZE: '50', SECONDS: '6', PEOPLE_WARMUP_S: '2', PEOPLE_DRAIN_S: '60',
           PEOPLE_PAUSE_MEAN_MS: '2000', LOGINS_PER_S: '1', ...env },
  });
  const last = (r.stdout || '').trim().split('\n').pop();
  assert.ok(last && last.startsWith('{'), `no result (exit ${r.status}): ${String(r.stderr).slice(-3000)}`);
  return { code: r.status, out: JSON.parse(last), stderr: r.stderr };
}

function nothingLost(out) {
  assert.equal(out.connected, 100);
  assert.ok(out.expected > 0, 'messages were sent');
  assert.equal(out.lost, 0);
  assert.equal(out.delivered, out.expected);
  assert.equal(out.duplicates, 0);
  assert.equal(out.gaps, 0);
  assert.equal(out.refused, 0);
  for (const [what, t] of Object.entries(out.timed)) assert.equal(t.failed, 0, `${what} answered other than 2xx`);
}

test('100 people act for a few seconds: every action answered, every message at every member once', () => {
  const { code, out } = simulate({});
  nothingLost(out);
  assert.equal(code, 0);
  for (const [what, t] of Object.entries(out.timed)) assert.equal(t.cut, 0, `${what} cut off`);
  for (const what of ['history', 'send', 'typing', 'members', 'delivery', 'signIn']) assert.ok(out.timed[what].n > 0, `${what} happened`);
  assert.ok(out.eventsByName.MESSAGE_CREATE > 0 && out.eventsByName.TYPING_START > 0);
  assert.equal(out.signedOut, 0);
  assert.ok(out.serverCpuS > 0 && out.serverCpuMsPerPersonHour > 0);
});

test('a restart halfway: every page comes back and resumes, nothing lost, nobody signs in again', () => {
  const { code, out } = simulate({ STORM: '1' });
  nothingLost(out);
  assert.equal(code, 0);
  assert.equal(out.storm.down, 100, 'every page lost its socket');
  assert.ok(out.storm.backS > 0, 'and all came back');
  assert.ok(out.reconnects >= 100);
  assert.equal(out.signedOut, 0);
});
