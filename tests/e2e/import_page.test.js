// Moving from the page: a server's owner prepares its portable archive and downloads it
// (/api/servers/:sid/archives), and a person uploads a community's export (/api/imports) that
// the node imports as `praca import` would, in a process of its own, saying how far it is; what
// the import cannot read ends the job as failed, with the command's words.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { api, register, startServer, upload, serverWithMembers, eventually } = require('./helpers');

const ARGS = ['--rate-limit-scale', '100'];
let from, to;
test.before(async () => { [from, to] = await Promise.all([startServer({ args: ARGS }), startServer({ args: ARGS })]); });
test.after(async () => { await Promise.all([from.stop(), to.stop()]); });

const FIXTURES = path.join(__dirname, 'fixtures');

// Follows a job until it ends; returns it.
async function ended(srv, token, id, timeoutMs = 20000) {
  let job;
  await eventually(async () => {
    const r = await api(srv.url, 'GET', '/api/imports', { token });
    job = r.body.imports.find((x) => x.id === id);
    return job && job.status !== 'running' ? true : JSON.stringify(job);
  }, timeoutMs, 'the import to end');
  return job;
}

// One channel's DiscordChatExporter file: one message by alice with these attachments.
function dceChannel(name, content, attachments) {
  return {
    guild: { id: '880000000000000001', name: 'Clube' },
    channel: { id: '880000000000000012', type: 'GuildTextChat', categoryId: null, category: null, name, topic: null },
    messages: [{ id: '1107002235289600000', type: 'Default', timestamp: '2023-05-13T17:51:40.000+00:00', isPinned: false, content,
      author: { id: '880000000000000101', name: 'alice', isBot: false, roles: [] }, attachments, reactions: [] }],
  };
}

// The messages of the channel named channel in the server the person's import named server.
async function messagesOf(srv, token, server, channel) {
  const sid = (await api(srv.url, 'GET', '/api/servers', { token })).body.servers.find((s) => s.name === server).id;
  const cid = (await api(srv.url, 'GET', `/api/servers/${sid}`, { token })).body.channels.find((c) => c.name === channel).id;
  return (await api(srv.url, 'GET', `/api/servers/${sid}/channels/${cid}/messages`, { token })).body.messages;
}

test('the owner prepares the server\'s archive and downloads it; nobody else may', async () => {
  const w = await serverWithMembers(from.url, 1);
  const tree = (await api(from.url, 'GET', `/api/servers/${w.sid}`, { token: w.owner.token })).body;
  const geral = tree.channels.find((c) => c.type === 'text').id;
  await api(from.url, 'POST', `/api/servers/${w.sid}/channels/${geral}/messages`, { token: w.members[0].token, body: { content: 'olá do arquivo' } });
  assert.equal((await api(from.url, 'POST', `/api/servers/${w.sid}/archives`, { token: w.members[0].token })).status, 403);
  const started = await api(from.url, 'POST', `/api/servers/${w.sid}/archives`, { token: w.owner.token });
  assert.equal(started.status, 202, started.text);
  assert.equal(started.body.archive.status, 'pending');
  let ready;
  await eventually(async () => {
    const r = await api(from.url, 'GET', `/api/servers/${w.sid}/archives`, { token: w.owner.token });
    ready = r.body.archives.find((x) => x.id === started.body.archive.id && x.status === 'ready');
    return !!ready || JSON.stringify(r.body);
  }, 10000, 'the archive');
  assert.ok(ready.size > 0);
  const res = await fetch(`${from.url}/api/servers/${w.sid}/archives/${ready.id}/file`, { headers: { authorization: `Bearer ${w.owner.token}` } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-disposition'), /servidor-.*\.praca/);
  const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines[0].format, 'praca-archive');
  assert.ok(lines.some((l) => l.record === 'message' && l.content === 'olá do arquivo'));
  assert.equal((await api(from.url, 'GET', `/api/servers/${w.sid}/archives/${ready.id}/file`, { token: w.members[0].token })).status, 403);
  const mine = await api(from.url, 'GET', '/api/users/@me/exports', { token: w.owner.token });
  assert.deepEqual(mine.body.exports, [], "a server's archive is not among the person's own");

  // Uploaded on another Praça, it becomes the server there, with a job that says how far it is.
  const owner = await register(to.url, w.owner.user.username);
  const file = Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const up = await upload(to.url, 'POST', '/api/imports', owner.token, { format: 'praca-archive' }, [{ name: 'clube.praca', data: file, type: 'application/x-ndjson' }]);
  assert.equal(up.status, 202, up.text);
  assert.equal(up.body.import.status, 'running');
  assert.equal(up.body.import.fileName, 'clube.praca');
  const job = await ended(to, owner.token, up.body.import.id);
  assert.equal(job.status, 'done', JSON.stringify(job));
  assert.equal(job.progress, 1000);
  assert.equal(job.serverId, w.sid);
  assert.equal(job.messages, 1);
  const history = await api(to.url, 'GET', `/api/servers/${w.sid}/channels/${geral}/messages`, { token: owner.token });
  assert.deepEqual(history.body.messages.map((m) => m.content), ['olá do arquivo']);
});

test('a Mattermost, Discord or Slack export uploaded becomes a server; a bad one fails with the command\'s words', async () => {
  const owner = await register(to.url);
  const mm = fs.readFileSync(path.join(FIXTURES, 'mattermost', 'export.jsonl'));
  const up = await upload(to.url, 'POST', '/api/imports', owner.token, { format: 'mattermost', serverName: 'Clube MM', team: 'clube' }, [{ name: 'export.jsonl', data: mm }]);
  assert.equal(up.status, 202, up.text);
  const job = await ended(to, owner.token, up.body.import.id);
  assert.equal(job.status, 'done', JSON.stringify(job));
  assert.ok(job.messages > 0);
  const servers = (await api(to.url, 'GET', '/api/servers', { token: owner.token })).body.servers;
  assert.ok(servers.some((s) => s.id === job.serverId && s.name === 'Clube MM'));

  const dce = fs.readdirSync(path.join(FIXTURES, 'discord')).find((f) => f.includes('geral ['));
  const d = await upload(to.url, 'POST', '/api/imports', owner.token, { format: 'discord', serverName: 'Clube DC' }, [{ name: dce, data: fs.readFileSync(path.join(FIXTURES, 'discord', dce)) }]);
  assert.equal(d.status, 202, d.text);
  const djob = await ended(to, owner.token, d.body.import.id);
  assert.equal(djob.status, 'done', JSON.stringify(djob));
  assert.ok(djob.messages >= 6);

  const sl = await upload(to.url, 'POST', '/api/imports', owner.token, { format: 'slack', serverName: 'Clube SL' }, [{ name: 'Clube Slack export.zip', data: fs.readFileSync(path.join(FIXTURES, 'slack.zip')), type: 'application/zip' }]);
  assert.equal(sl.status, 202, sl.text);
  const sjob = await ended(to, owner.token, sl.body.import.id);
  assert.equal(sjob.status, 'done', JSON.stringify(sjob));
  assert.equal(sjob.messages, 10, "a Slack export's zip, as by command");

  const bad = await upload(to.url, 'POST', '/api/imports', owner.token, { format: 'mattermost', serverName: 'Nada' }, [{ name: 'x.jsonl', data: Buffer.from('{"type":"version","version":1}\n{não é json\n') }]);
  assert.equal(bad.status, 202);
  const failed = await ended(to, owner.token, bad.body.import.id);
  assert.equal(failed.status, 'failed');
  assert.match(failed.error, /line 2/);
  const list = (await api(to.url, 'GET', '/api/imports', { token: owner.token })).body.imports;
  assert.deepEqual(list.map((x) => x.id), [bad.body.import.id, sl.body.import.id, d.body.import.id, up.body.import.id], 'newest first');
});

test('an import upload is refused for what it lacks, and another person\'s jobs are not shown', async () => {
  const p = await register(to.url);
  const file = [{ name: 'a.jsonl', data: Buffer.from('{}\n') }];
  const cases = [
    [{ format: 'teams', serverName: 'X' }, file, /format/],
    [{ format: 'mattermost' }, file, /serverName/],
    [{ format: 'mattermost', serverName: 'X'.repeat(401) }, file, /serverName/],
    [{ format: 'discord', serverName: 'X', team: 't' }, file, /team/],
    [{ format: 'discord', serverName: 'X' }, [], /file/],
  ];
  for (const [payload, files, why] of cases) {
    const r = await upload(to.url, 'POST', '/api/imports', p.token, payload, files);
    assert.equal(r.status, 400, `${JSON.stringify(payload)}: ${r.text}`);
    assert.match(r.text, why);
  }
  const other = await register(to.url);
  assert.deepEqual((await api(to.url, 'GET', '/api/imports', { token: other.token })).body.imports, []);
  assert.equal((await api(to.url, 'GET', '/api/imports')).status, 401);
});

test('--import-max-mb 0 turns imports from the page off; past the size, 413', async () => {
  const off = await startServer({ args: ['--import-max-mb', '0'] });
  try {
    const p = await register(off.url);
    const r = await upload(off.url, 'POST', '/api/imports', p.token, { format: 'praca-archive' }, [{ name: 'a', data: Buffer.from('{}') }]);
    assert.notEqual(r.status, 202);
  } finally { await off.stop(); }
  const small = await startServer({ args: ['--import-max-mb', '1'] });
  try {
    const p = await register(small.url);
    const r = await upload(small.url, 'POST', '/api/imports', p.token, { format: 'praca-archive' }, [{ name: 'a', data: Buffer.alloc(1100 * 1000, 65) }]);
    assert.equal(r.status, 413);
  } finally { await small.stop(); }
});

test("an import from the page reads no file beside its upload: an export's paths stay lines", async () => {
  const owner = await register(to.url);
  fs.writeFileSync(path.join(to.dir, 'files', 'spool', 'vizinho.png'), fs.readFileSync(path.join(FIXTURES, 'note.png')));
  const dce = dceChannel('fotos', 'veja', [{ url: 'vizinho.png', fileName: 'vizinho.png' }]);
  const up = await upload(to.url, 'POST', '/api/imports', owner.token, { format: 'discord', serverName: 'Vizinhos' }, [{ name: 'fotos.json', data: Buffer.from(JSON.stringify(dce)) }]);
  assert.equal(up.status, 202, up.text);
  assert.equal((await ended(to, owner.token, up.body.import.id)).status, 'done');
  const [m] = await messagesOf(to, owner.token, 'Vizinhos', 'fotos');
  assert.equal(m.content, 'veja\nvizinho.png');
  assert.deepEqual(m.attachments, []);
});

test('what an import from the page fetches in all stays within --import-max-mb', async () => {
  const http = require('node:http');
  const big = require('node:crypto').randomBytes(700 * 1024);
  const site = http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/octet-stream' }); res.end(big); });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  const srv = await startServer({ args: [...ARGS, '--import-max-mb', '1', '--allow-private-endpoints'] });
  try {
    const owner = await register(srv.url);
    const link = (n) => ({ url: `http://127.0.0.1:${site.address().port}/${n}.bin`, fileName: `${n}.bin` });
    const dce = dceChannel('arquivos', 'dois', [link('a'), link('b')]);
    const up = await upload(srv.url, 'POST', '/api/imports', owner.token, { format: 'discord', serverName: 'Grandes' }, [{ name: 'a.json', data: Buffer.from(JSON.stringify(dce)) }]);
    assert.equal(up.status, 202, up.text);
    assert.equal((await ended(srv, owner.token, up.body.import.id)).status, 'done');
    const [m] = await messagesOf(srv, owner.token, 'Grandes', 'arquivos');
    const kept = m.attachments.reduce((sum, a) => sum + a.size, 0);
    assert.ok(kept <= 1024 * 1024, `${kept} bytes kept from the links`);
    assert.ok(m.attachments.length < 2, 'not both');
    assert.match(m.content, /\.bin/, 'a file not brought stays a link');
  } finally {
    await srv.stop();
    site.close();
  }
});

test("a Discord export's folder zipped comes from the page with its files", async () => {
  const owner = await register(to.url);
  const { spawnSync } = require('node:child_process');
  const dce = dceChannel('fotos', 'a capa', [{ url: 'fotos_Files/capa.png', fileName: 'capa.png' }]);
  const made = spawnSync('python3', ['-c', `
import io, sys, zipfile
b = io.BytesIO()
with zipfile.ZipFile(b, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('Clube - fotos [880000000000000012].json', sys.argv[1])
    z.write(sys.argv[2], 'fotos_Files/capa.png')
sys.stdout.buffer.write(b.getvalue())
`, JSON.stringify(dce), path.join(FIXTURES, 'note.png')]);
  assert.equal(made.status, 0, String(made.stderr));
  const up = await upload(to.url, 'POST', '/api/imports', owner.token, { format: 'discord', serverName: 'Clube com capa' }, [{ name: 'clube.zip', data: made.stdout, type: 'application/zip' }]);
  assert.equal(up.status, 202, up.text);
  assert.equal((await ended(to, owner.token, up.body.import.id)).status, 'done');
  const [m] = await messagesOf(to, owner.token, 'Clube com capa', 'fotos');
  assert.equal(m.content, 'a capa');
  assert.deepEqual(m.attachments.map((a) => [a.filename, a.contentType]), [['capa.png', 'image/png']]);
});
