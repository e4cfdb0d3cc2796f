// Files: what an upload and a download cost the server, and what it holds meanwhile.
//
//   PRACA_BIN=build/praca node bench/uploads.js
//
// Prints one JSON line per measure, with the server's CPU (utime + stime from /proc/PID/stat)
// per MB and its resident memory (VmRSS) sampled every 10 ms:
// - upload: SEQUENTIAL uploads of a SIZE_MB file one after another (CPU per MB, RSS);
// - concurrent: CONCURRENT uploads of SIZE_MB at once (peak RSS over the idle one, per upload);
// - download: the same file fetched SEQUENTIAL times (CPU per MB, RSS);
// - thumbnail: a 12-megapixel JPEG (made with the vips command, when there is one) uploaded
//   against random bytes of the same size: the difference is the type check, the stripping,
//   the size and the thumbnail.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { startServer, serverWithMembers } = require('../tests/e2e/helpers');

const SIZE_MB = Number(process.env.SIZE_MB || 25);
const SEQUENTIAL = Number(process.env.SEQUENTIAL || 10);
const CONCURRENT = Number(process.env.CONCURRENT || 20);
const TICK = 100; // USER_HZ on Linux

function stat(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICK;
  const rss = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  return { cpuMs, rssMB: rss };
}

// Runs fn while sampling the server's RSS; returns fn's result, CPU ms and peak RSS.
async function measured(pid, fn) {
  const before = stat(pid);
  let peak = before.rssMB;
  const timer = setInterval(() => { peak = Math.max(peak, stat(pid).rssMB); }, 10);
  const started = Date.now();
  const result = await fn();
  clearInterval(timer);
  const after = stat(pid);
  return { result, cpuMs: after.cpuMs - before.cpuMs, wallMs: Date.now() - started, rssBeforeMB: before.rssMB, peakRssMB: Math.max(peak, after.rssMB) };
}

async function upload(url, token, name, data) {
  const form = new FormData();
  form.append('payload_json', '{}');
  form.append('files[0]', new Blob([data]), name);
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
  return body.message.attachments[0];
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const srv = await startServer({ args: ['--rate-limit-scale', '100000', '--uploads-per-minute', '100000', '--server-quota-mb', '100000000', '--access-log=0'] });
  const pid = srv.proc.pid;
  try {
    const { owner, sid, server } = await serverWithMembers(srv.url, 0);
    const url = `${srv.url}/api/servers/${sid}/channels/${server.channels[0].id}/messages`;
    const mb = SIZE_MB * 1000 * 1000;
    // Different bytes each time: the same content would be stored once and cost less.
    const files = Array.from({ length: Math.max(SEQUENTIAL, CONCURRENT) }, (_, i) => { const b = Buffer.alloc(mb, i); b.writeUInt32BE(i, 0); return b; });
    await upload(url, owner.token, 'warm.bin', Buffer.from('warm'));

    const up = await measured(pid, async () => { let last; for (let i = 0; i < SEQUENTIAL; i++) last = await upload(url, owner.token, `f${i}.bin`, files[i]); return last; });
    console.log(JSON.stringify({ measure: 'upload', files: SEQUENTIAL, sizeMB: SIZE_MB, cpuMsPerMB: +(up.cpuMs / (SEQUENTIAL * SIZE_MB)).toFixed(3),
      mbPerSecond: +((SEQUENTIAL * SIZE_MB) / (up.wallMs / 1000)).toFixed(1), rssBeforeMB: +up.rssBeforeMB.toFixed(1), peakRssMB: +up.peakRssMB.toFixed(1) }));

    // How what is held grows with the uploads in flight: 1, 5, then CONCURRENT at once.
    for (const n of [...new Set([1, 5, CONCURRENT])]) {
      const many = await measured(pid, () => Promise.all(files.slice(0, n).map((f, i) => upload(url, owner.token, `c${n}-${i}.bin`, Buffer.concat([f.subarray(2), Buffer.from([n, i])])))));
      console.log(JSON.stringify({ measure: 'concurrent', uploads: n, sizeMB: SIZE_MB, rssBeforeMB: +many.rssBeforeMB.toFixed(1), peakRssMB: +many.peakRssMB.toFixed(1),
        peakGrowthPerUploadMB: +((many.peakRssMB - many.rssBeforeMB) / n).toFixed(2), cpuMsPerMB: +(many.cpuMs / (n * SIZE_MB)).toFixed(3) }));
    }
    // And the CPU per MB with the file's size: 1 MB files against SIZE_MB ones.
    const small = await measured(pid, async () => { for (let i = 0; i < 25; i++) await upload(url, owner.token, `s${i}.bin`, Buffer.concat([files[0].subarray(0, 999998), Buffer.from([7, i])])); });
    console.log(JSON.stringify({ measure: 'upload', files: 25, sizeMB: 1, cpuMsPerMB: +(small.cpuMs / 25).toFixed(3) }));

    const down = await measured(pid, async () => {
      for (let i = 0; i < SEQUENTIAL; i++) {
        const res = await fetch(up.result.url, { headers: { authorization: `Bearer ${owner.token}` } });
        const got = Buffer.from(await res.arrayBuffer());
        if (got.length !== mb) throw new Error(`download: ${res.status} ${got.length}`);
      }
    });
    console.log(JSON.stringify({ measure: 'download', files: SEQUENTIAL, sizeMB: SIZE_MB, cpuMsPerMB: +(down.cpuMs / (SEQUENTIAL * SIZE_MB)).toFixed(3),
      mbPerSecond: +((SEQUENTIAL * SIZE_MB) / (down.wallMs / 1000)).toFixed(1), rssBeforeMB: +down.rssBeforeMB.toFixed(1), peakRssMB: +down.peakRssMB.toFixed(1) }));

    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'praca-bench-'));
    const jpeg = path.join(tmp, 'photo.jpg');
    const made = spawnSync('sh', ['-c', `vips gaussnoise ${tmp}/n.v 4000 3000 --mean 128 --sigma 40 && vips cast ${tmp}/n.v ${tmp}/c.v uchar && vips bandjoin "${tmp}/c.v ${tmp}/c.v ${tmp}/c.v" ${tmp}/rgb.v && vips jpegsave ${tmp}/rgb.v ${jpeg} --Q 85`]);
    if (made.status !== 0) {
      console.log(JSON.stringify({ measure: 'thumbnail', skipped: 'no vips command to make a 12-megapixel JPEG' }));
      return;
    }
    const photo = fs.readFileSync(jpeg);
    const noise = Buffer.alloc(photo.length);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const times = { jpeg: [], bytes: [] };
    for (let i = 0; i < 5; i++) {
      const copy = Buffer.concat([photo.subarray(0, photo.length - 2), Buffer.from([i]), photo.subarray(photo.length - 2)]);
      const a = await measured(pid, () => upload(url, owner.token, `p${i}.jpg`, copy));
      if (!a.result.thumbnailUrl || a.result.width !== 4000) throw new Error('no thumbnail: ' + JSON.stringify(a.result));
      times.jpeg.push({ wall: a.wallMs, cpu: a.cpuMs });
      const n = Buffer.from(noise);
      n[0] = i;
      const b = await measured(pid, () => upload(url, owner.token, `n${i}.bin`, n));
      times.bytes.push({ wall: b.wallMs, cpu: b.cpuMs });
    }
    const wall = median(times.jpeg.map((t) => t.wall)) - median(times.bytes.map((t) => t.wall));
    const cpu = median(times.jpeg.map((t) => t.cpu)) - median(times.bytes.map((t) => t.cpu));
    console.log(JSON.stringify({ measure: 'thumbnail', megapixels: 12, jpegMB: +(photo.length / 1e6).toFixed(2), medianUploadMs: median(times.jpeg.map((t) => t.wall)),
      medianSameSizeBytesMs: median(times.bytes.map((t) => t.wall)), imageWorkMs: wall, imageWorkCpuMs: cpu }));
    fs.rmSync(tmp, { recursive: true, force: true });
  } finally {
    await srv.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
