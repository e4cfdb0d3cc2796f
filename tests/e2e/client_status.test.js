// The page's status text (src/web/static/chat-status.js): a leading emoji kept apart, as the card
// shows it, and "clear after" turned into the expiresAt the API takes.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { pageModule } = require('./helpers');

let customStatus;
test.before(async () => { ({ customStatus } = await pageModule('chat-status.js')); });

const at = new Date('2026-11-29T10:00:00');

test('a leading emoji is kept apart; text alone, or an emoji alone, stays the name', () => {
  assert.deepEqual(customStatus('📅 Em reunião', 'never', at), { type: 'custom', name: 'Em reunião', emoji: '📅' });
  assert.deepEqual(customStatus('👩🏽‍💻programando', 'never', at), { type: 'custom', name: 'programando', emoji: '👩🏽‍💻' });
  assert.deepEqual(customStatus('Almoçando 🍝', 'never', at), { type: 'custom', name: 'Almoçando 🍝' });
  assert.deepEqual(customStatus('🌴', 'never', at), { type: 'custom', name: '🌴' });
  assert.equal(customStatus('x'.repeat(200), 'never', at).name.length, 128);
});

test('clear after: minutes and hours from now, or the end of today', () => {
  assert.equal(customStatus('fora', '30m', at).expiresAt, new Date(at.getTime() + 30 * 60000).toISOString());
  assert.equal(customStatus('fora', '4h', at).expiresAt, new Date(at.getTime() + 4 * 3600000).toISOString());
  assert.equal(customStatus('fora', 'today', at).expiresAt, new Date(2026, 10, 30).toISOString());
  assert.equal(customStatus('fora', 'never', at).expiresAt, undefined);
});
