// The pages' QR encoder (src/web/static/qr.js) against an independent decoder (jsQR): every
// version it makes, 1 to 10, reads back as the text it was given; longer text is refused.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const jsQR = require('jsqr');
const { QR } = require(path.join(__dirname, '../../src/web/static/qr.js')); // an ES module, as the pages load it

function read(dark, scale = 3) {
  const size = (dark.length + 8) * scale;
  const data = new Uint8ClampedArray(size * size * 4).fill(255);
  dark.forEach((row, y) => row.forEach((on, x) => {
    if (!on) return;
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < scale; dx++) {
        const i = (((y + 4) * scale + dy) * size + (x + 4) * scale + dx) * 4;
        data[i] = data[i + 1] = data[i + 2] = 0;
      }
    }
  }));
  const got = jsQR(data, size, size);
  return got && got.data;
}

test('every version from 1 to 10 reads back as its text', () => {
  const base = 'otpauth://totp/Pra%C3%A7a:ana?secret=' + 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.repeat(7);
  const sizes = new Set();
  for (const len of [1, 14, 20, 26, 40, 62, 84, 106, 122, 152, 180, 213]) {
    const text = base.slice(0, len);
    const dark = QR.modules(text);
    sizes.add(dark.length);
    assert.equal(read(dark), text, `${len} bytes`);
  }
  assert.deepEqual([...sizes].sort((a, b) => a - b), [21, 25, 29, 33, 37, 41, 45, 49, 53, 57], 'versions 1 to 10');
});

test('UTF-8 text and the longest text a version 10 code holds; one byte more is refused', () => {
  assert.equal(read(QR.modules('Praça 🎉 ação')), 'Praça 🎉 ação');
  assert.equal(QR.modules('x'.repeat(213)).length, 57);
  assert.equal(QR.modules('x'.repeat(214)), null);
});
