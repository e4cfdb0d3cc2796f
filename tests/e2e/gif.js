// Small GIFs made in place for the tests, still or animated: each frame one colour, its codes
// written at 8 bits with a clear code every 125 (an "uncompressed" GIF, valid LZW that any
// decoder reads), so no picture needs to live in the repository.
'use strict';

function subBlocks(bytes) {
  const out = [];
  for (let i = 0; i < bytes.length; i += 255) {
    const part = bytes.slice(i, i + 255);
    out.push(part.length, ...part);
  }
  out.push(0);
  return out;
}

// frames: [[r, g, b], …] of a width × height picture; delay in hundredths of a second.
function gif(width, height, frames, delay = 20) {
  const palette = new Array(128 * 3).fill(0);
  frames.forEach(([r, g, b], i) => palette.splice(i * 3, 3, r, g, b));
  const u16 = (n) => [n & 255, n >> 8];
  const bytes = [...Buffer.from('GIF89a'), ...u16(width), ...u16(height), 0xf6, 0, 0, ...palette];
  if (frames.length > 1) bytes.push(0x21, 0xff, 11, ...Buffer.from('NETSCAPE2.0'), 3, 1, 0, 0, 0);
  frames.forEach((_, i) => {
    bytes.push(0x21, 0xf9, 4, 0x04, ...u16(delay), 0, 0); // graphic control: keep, delay
    bytes.push(0x2c, 0, 0, 0, 0, ...u16(width), ...u16(height), 0);
    const codes = [];
    for (let p = 0; p < width * height; p++) {
      if (p % 125 === 0) codes.push(128); // clear: the codes stay 8 bits wide
      codes.push(i);
    }
    codes.push(129); // end
    bytes.push(7, ...subBlocks(codes));
  });
  bytes.push(0x3b);
  return Buffer.from(bytes);
}

module.exports = { gif };

// A still PNG of one grey, width × height (8-bit greyscale, stored deflate).
function png(width, height, grey = 128) {
  const { pngFile } = require('./helpers');
  const zlib = require('node:zlib');
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width, grey)]);
  return pngFile(width, height, { depth: 8, type: 0 }, zlib.deflateSync(Buffer.concat(Array(height).fill(row))));
}

// A WebP's canvas and whether it is animated, from its header (VP8X, VP8L or VP8).
function webpInfo(buf) {
  if (buf.toString('latin1', 0, 4) !== 'RIFF' || buf.toString('latin1', 8, 12) !== 'WEBP') return null;
  const kind = buf.toString('latin1', 12, 16);
  if (kind === 'VP8X') {
    return { width: 1 + buf.readUIntLE(24, 3), height: 1 + buf.readUIntLE(27, 3), animated: (buf[20] & 2) !== 0 };
  }
  if (kind === 'VP8L') {
    const b = buf.readUInt32LE(21);
    return { width: 1 + (b & 0x3fff), height: 1 + ((b >> 14) & 0x3fff), animated: false };
  }
  return { width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff, animated: false };
}

// A server's own emoji uploaded by who (a person's or a bot's token): the answer.
async function uploadEmoji(base, token, sid, name, data, type = 'image/gif') {
  const { upload } = require('./helpers');
  return upload(base, 'POST', `/api/servers/${sid}/emojis`, token, { name }, [{ name: 'emoji', data, type }]);
}

module.exports.png = png;
module.exports.webpInfo = webpInfo;
module.exports.uploadEmoji = uploadEmoji;
