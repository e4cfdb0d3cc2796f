// A QR code (ISO/IEC 18004) of a text, drawn on a canvas, for the two-factor setup: byte mode,
// error correction level M, versions 1 to 10 (up to 213 bytes), so no outside service ever sees
// the secret. The construction follows Project Nayuki's QR Code generator (MIT).

export const QR = (() => {
  // Level M, versions 1–10: error correction codewords per block, and blocks.
  const ECC_PER_BLOCK = [10, 16, 26, 18, 24, 16, 18, 22, 22, 26];
  const BLOCKS = [1, 1, 1, 2, 2, 4, 4, 4, 5, 5];
  const FORMAT_M = 0; // the level's two bits in the format information

  function rawModules(ver) {
    let n = (16 * ver + 128) * ver + 64;
    if (ver >= 2) {
      const align = Math.floor(ver / 7) + 2;
      n -= (25 * align - 10) * align - 55;
      if (ver >= 7) n -= 36;
    }
    return n;
  }
  const dataCodewords = (ver) => Math.floor(rawModules(ver) / 8) - ECC_PER_BLOCK[ver - 1] * BLOCKS[ver - 1];

  // GF(256) with the polynomial 0x11D.
  function mul(x, y) {
    let z = 0;
    for (let i = 7; i >= 0; i--) {
      z = (z << 1) ^ ((z >>> 7) * 0x11d);
      z ^= ((y >>> i) & 1) * x;
    }
    return z;
  }
  function divisor(degree) {
    const d = new Array(degree).fill(0);
    d[degree - 1] = 1;
    let root = 1;
    for (let i = 0; i < degree; i++) {
      for (let j = 0; j < degree; j++) {
        d[j] = mul(d[j], root);
        if (j + 1 < degree) d[j] ^= d[j + 1];
      }
      root = mul(root, 0x02);
    }
    return d;
  }
  function remainder(data, div) {
    const r = div.map(() => 0);
    for (const b of data) {
      const factor = b ^ r.shift();
      r.push(0);
      div.forEach((coef, i) => { r[i] ^= mul(coef, factor); });
    }
    return r;
  }

  // The data codewords: mode 0100, the length, the bytes, a terminator, padding.
  function encode(bytes, ver) {
    const bits = [];
    const put = (value, n) => { for (let i = n - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
    put(0b0100, 4);
    put(bytes.length, ver < 10 ? 8 : 16);
    for (const b of bytes) put(b, 8);
    const capacity = dataCodewords(ver) * 8;
    put(0, Math.min(4, capacity - bits.length));
    put(0, (8 - (bits.length % 8)) % 8);
    for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
    const out = [];
    for (let i = 0; i < bits.length; i += 8) out.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
    return out;
  }

  // Splits into blocks, adds each one's error correction, and interleaves them.
  function interleave(data, ver) {
    const blocks = BLOCKS[ver - 1];
    const eccLen = ECC_PER_BLOCK[ver - 1];
    const raw = Math.floor(rawModules(ver) / 8);
    const shortBlocks = blocks - (raw % blocks);
    const shortLen = Math.floor(raw / blocks);
    const div = divisor(eccLen);
    const all = [];
    for (let i = 0, k = 0; i < blocks; i++) {
      const dat = data.slice(k, k + shortLen - eccLen + (i < shortBlocks ? 0 : 1));
      k += dat.length;
      const ecc = remainder(dat, div);
      if (i < shortBlocks) dat.push(0);
      all.push(dat.concat(ecc));
    }
    const out = [];
    for (let i = 0; i < all[0].length; i++) {
      all.forEach((block, j) => { if (i !== shortLen - eccLen || j >= shortBlocks) out.push(block[i]); });
    }
    return out;
  }

  function alignment(ver, size) {
    if (ver === 1) return [];
    const n = Math.floor(ver / 7) + 2;
    const step = Math.ceil((ver * 4 + 4) / (n * 2 - 2)) * 2;
    const pos = [6];
    for (let p = size - 7; pos.length < n; p -= step) pos.splice(1, 0, p);
    return pos;
  }

  const MASKS = [
    (x, y) => (x + y) % 2 === 0, (x, y) => y % 2 === 0, (x) => x % 3 === 0, (x, y) => (x + y) % 3 === 0,
    (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0, (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
    (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0, (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
  ];

  function build(ver, codewords, mask) {
    const size = ver * 4 + 17;
    const dark = Array.from({ length: size }, () => new Array(size).fill(false));
    const fixed = Array.from({ length: size }, () => new Array(size).fill(false));
    const set = (x, y, on) => { if (x >= 0 && y >= 0 && x < size && y < size) { dark[y][x] = on; fixed[y][x] = true; } };
    for (let i = 0; i < size; i++) { set(6, i, i % 2 === 0); set(i, 6, i % 2 === 0); }
    for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const d = Math.max(Math.abs(dx), Math.abs(dy));
          set(cx + dx, cy + dy, d !== 2 && d !== 4);
        }
      }
    }
    const pos = alignment(ver, size);
    pos.forEach((ax, i) => pos.forEach((ay, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === pos.length - 1) || (i === pos.length - 1 && j === 0)) return;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) set(ax + dx, ay + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }));
    // Format information (level and mask), twice, and the dark module.
    let rem = (FORMAT_M << 3) | mask;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    const format = ((((FORMAT_M << 3) | mask) << 10) | rem) ^ 0x5412;
    const bit = (v, i) => ((v >>> i) & 1) !== 0;
    for (let i = 0; i <= 5; i++) set(8, i, bit(format, i));
    set(8, 7, bit(format, 6));
    set(8, 8, bit(format, 7));
    set(7, 8, bit(format, 8));
    for (let i = 9; i < 15; i++) set(14 - i, 8, bit(format, i));
    for (let i = 0; i < 8; i++) set(size - 1 - i, 8, bit(format, i));
    for (let i = 8; i < 15; i++) set(8, size - 15 + i, bit(format, i));
    set(8, size - 8, true);
    if (ver >= 7) { // version information, twice
      let r = ver;
      for (let i = 0; i < 12; i++) r = (r << 1) ^ ((r >>> 11) * 0x1f25);
      const v = (ver << 12) | r;
      for (let i = 0; i < 18; i++) {
        const a = size - 11 + (i % 3);
        const b = Math.floor(i / 3);
        set(a, b, bit(v, i));
        set(b, a, bit(v, i));
      }
    }
    // The codewords in the zigzag, then the mask over what is not fixed.
    let i = 0;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      for (let vert = 0; vert < size; vert++) {
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          const y = ((right + 1) & 2) === 0 ? size - 1 - vert : vert;
          if (!fixed[y][x] && i < codewords.length * 8) {
            dark[y][x] = bit(codewords[i >>> 3], 7 - (i & 7));
            i++;
          }
        }
      }
    }
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (!fixed[y][x] && MASKS[mask](x, y)) dark[y][x] = !dark[y][x];
    return dark;
  }

  // Runs of five or more, 2×2 blocks, and the balance of dark and light (finder-like patterns,
  // the standard's third rule, are left out: they only make some masks a little worse).
  function penalty(dark) {
    const size = dark.length;
    let score = 0;
    let darkCount = 0;
    for (let a = 0; a < size; a++) {
      for (const line of [(b) => dark[a][b], (b) => dark[b][a]]) {
        let run = 1;
        for (let b = 1; b <= size; b++) {
          if (b < size && line(b) === line(b - 1)) run++;
          else { if (run >= 5) score += run - 2; run = 1; }
        }
      }
      for (let b = 0; b < size; b++) {
        if (dark[a][b]) darkCount++;
        if (a + 1 < size && b + 1 < size && dark[a][b] === dark[a][b + 1] && dark[a][b] === dark[a + 1][b] && dark[a][b] === dark[a + 1][b + 1]) score += 3;
      }
    }
    return score + Math.floor(Math.abs(darkCount * 20 - size * size * 10) / (size * size)) * 10;
  }

  // The modules of text's QR code (true: dark), or null when it is longer than version 10 holds.
  function modules(text) {
    const bytes = Array.from(new TextEncoder().encode(text));
    let ver = 1;
    while (ver <= 10 && 4 + (ver < 10 ? 8 : 16) + bytes.length * 8 > dataCodewords(ver) * 8) ver++;
    if (ver > 10) return null;
    const codewords = interleave(encode(bytes, ver), ver);
    let best = null;
    let bestScore = Infinity;
    for (let mask = 0; mask < 8; mask++) {
      const dark = build(ver, codewords, mask);
      const score = penalty(dark);
      if (score < bestScore) { best = dark; bestScore = score; }
    }
    return best;
  }

  // Draws text's code on canvas, `scale` pixels a module, with the standard's 4-module margin.
  function draw(canvas, text, scale = 4) {
    const dark = modules(text);
    if (!dark) return false;
    const size = dark.length + 8;
    canvas.width = canvas.height = size * scale;
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#000';
    dark.forEach((row, y) => row.forEach((on, x) => { if (on) ctx.fillRect((x + 4) * scale, (y + 4) * scale, scale, scale); }));
    return true;
  }

  return { modules, draw };
})();

