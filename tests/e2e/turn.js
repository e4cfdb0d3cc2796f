// A real TURN server for the tests (Debian's coturn), on a free port in a folder of its own,
// checking credentials the way a production one set up as deploy/coturn/turnserver.conf does
// (use-auth-secret: the TURN REST API scheme). Loopback peers are allowed here only, since both
// browsers of a test are on this machine.
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { eventually, freePort, tempDir } = require('./helpers');

async function startTurn({ secret = 'segredo-do-turn' } = {}) {
  const port = await freePort();
  const dir = tempDir('praca-turn-');
  const relayFrom = 40000 + (port % 20000);
  const proc = spawn('/usr/bin/turnserver', [
    '-n', '--listening-ip=127.0.0.1', `--listening-port=${port}`, '--relay-ip=127.0.0.1',
    `--min-port=${relayFrom}`, `--max-port=${relayFrom + 200}`,
    '--use-auth-secret', `--static-auth-secret=${secret}`, '--realm=praca.test',
    '--no-tls', '--no-dtls', '--no-cli', '--allow-loopback-peers', '--fingerprint',
    `--db=${path.join(dir, 'turndb')}`, `--pidfile=${path.join(dir, 'turn.pid')}`,
    '--log-file=stdout', '--simple-log', '--verbose',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stdout.on('data', (d) => { log += d; });
  proc.stderr.on('data', (d) => { log += d; });
  await eventually(() => new Promise((resolve) => {
    const c = net.connect(port, '127.0.0.1', () => { c.end(); resolve(true); }).on('error', () => resolve(false));
  }), 10000, 'the TURN server up');
  return {
    url: `turn:127.0.0.1:${port}?transport=udp`,
    secret,
    log: () => log,
    stop: () => { proc.kill(); fs.rmSync(dir, { recursive: true, force: true }); },
  };
}

module.exports = { startTurn };
