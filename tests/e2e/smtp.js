// A real SMTP server for the tests (Debian's python3-aiosmtpd, printing each message it takes):
// started on a free port, read back as the list of messages it received.
'use strict';
const net = require('node:net');
const { spawn } = require('node:child_process');
const { eventually } = require('./helpers');

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

async function startSmtp() {
  const port = await freePort();
  const proc = spawn('/usr/bin/python3', ['-m', 'aiosmtpd', '-n', '-l', `127.0.0.1:${port}`, '-c', 'aiosmtpd.handlers.Debugging'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  proc.stdout.on('data', (d) => { printed += d; });
  await eventually(() => new Promise((resolve) => {
    const c = net.connect(port, '127.0.0.1', () => { c.end(); resolve(true); }).on('error', () => resolve(false));
  }), 10000, 'the SMTP server up');
  // Whole messages only: the server's output comes in chunks, and a message's headers may be
  // read before its body is printed.
  const END = '------------ END MESSAGE ------------';
  const messages = () => printed.split('---------- MESSAGE FOLLOWS ----------').slice(1)
    .filter((m) => m.includes(END)).map((m) => m.slice(0, m.indexOf(END)));
  // The first message to `to` among those received after the first `after`.
  async function nextMail(after, to) {
    let found;
    await eventually(() => {
      found = messages().slice(after).find((m) => m.includes(`To: ${to}`));
      return Boolean(found);
    }, 10000, `a mail to ${to}`);
    return found;
  }
  return { url: `smtp://127.0.0.1:${port}`, messages, nextMail, stop: () => proc.kill() };
}

module.exports = { startSmtp };
