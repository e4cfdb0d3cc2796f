// What the benches measure a process by, written once: a process's CPU time from its threads'
// schedstat (nanoseconds), the CPU of this process's other descendants (its Chromium), and a
// percentile.
'use strict';
const fs = require('node:fs');

// The CPU time of every thread of pid so far, in ns.
function cpuNs(pid) {
  let total = 0;
  for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
    try { total += Number(fs.readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]); } catch { /* a thread that ended */ }
  }
  return total;
}

// The user and system time of this process's descendants but those in `except` (the servers
// under test: what is left is its Chromium), in clock ticks (USER_HZ, 100 a second).
function descendantsTicks(...except) {
  const procs = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      procs.push({ pid: Number(pid), ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch { /* gone */ }
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) if (!mine.has(p.pid) && mine.has(p.ppid)) { mine.add(p.pid); grew = true; }
  }
  return procs.filter((p) => p.pid !== process.pid && !except.includes(p.pid) && mine.has(p.pid)).reduce((a, p) => a + p.ticks, 0);
}

// The p-th fraction (0.5, 0.99) of xs.
const pct = (xs, p) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

module.exports = { cpuNs, descendantsTicks, pct };
