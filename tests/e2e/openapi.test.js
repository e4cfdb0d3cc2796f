// docs/openapi.json: every route of the code is in it and nothing else, each with its
// authentication, a summary and an error answer; and the server serves it. (Every JSON answer
// the other suites receive is checked against it by helpers.js.)
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const { BIN, startServer, api } = require('./helpers');
const { doc, DOC_PATH, checkAnswer } = require('./openapi');

// {method, pattern, auth} of every route the route tables hold, as `praca routes markdown` lists them.
const AUTH = { public: 'API_PUBLIC', person: 'API_PERSON', bot: 'API_BOT', 'person or bot': 'API_ANY' };
function routesInCode() {
  return execFileSync(BIN, ['routes', 'markdown'], { encoding: 'utf8' }).trim().split('\n').slice(2)
    .map((line) => line.split(' | ').map((c) => c.replace(/^\| |`| \|$/g, '')))
    .map(([method, pattern, caller]) => ({ method, pattern, auth: AUTH[caller] }));
}
const toOpenApi = (pattern) => pattern.replace(/:(\w+)/g, '{$1}');

test('every route in the code is in docs/openapi.json, and every operation there is in the code', () => {
  const code = routesInCode();
  assert.ok(code.length > 80, 'the route tables were read');
  const inCode = new Set(code.map((r) => `${r.method} ${toOpenApi(r.pattern)}`));
  const inDoc = new Set(Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)));
  assert.deepEqual([...inCode].filter((r) => !inDoc.has(r)), [], 'routes missing from docs/openapi.json');
  assert.deepEqual([...inDoc].filter((r) => !inCode.has(r)), [], 'operations in docs/openapi.json that the code does not have');
});

test('each operation says who may call it, what it is, and how it fails', () => {
  const expected = {
    API_PUBLIC: [],
    API_PERSON: ['session', 'sessionCookie'],
    API_BOT: ['botToken'],
    API_ANY: ['session', 'sessionCookie', 'botToken'],
  };
  const ids = new Set();
  for (const r of routesInCode()) {
    const op = doc.paths[toOpenApi(r.pattern)][r.method.toLowerCase()];
    const where = `${r.method} ${r.pattern}`;
    assert.deepEqual(op.security.map((s) => Object.keys(s)[0]), expected[r.auth], where);
    assert.ok(op.summary && op.summary.length <= 100, `${where}: a short summary`);
    assert.ok(!ids.has(op.operationId), `${where}: operationId ${op.operationId} is unique`);
    ids.add(op.operationId);
    assert.equal(op.responses.default.content['application/json'].schema.$ref, '#/components/schemas/Error', where);
    assert.ok(Object.keys(op.responses).some((s) => /^2\d\d$/.test(s)), `${where}: a success answer`);
    for (const name of r.pattern.split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1)))
      assert.ok(op.parameters.some((p) => p.in === 'path' && p.name === name && p.required), `${where}: path parameter ${name}`);
  }
  assert.equal(doc.openapi, '3.1.0');
});

test('the checker refuses answers the document does not describe', () => {
  assert.throws(() => checkAnswer('GET', '/api/health', 200, { ok: 'yes', version: '1' }), /does not match/);
  assert.throws(() => checkAnswer('GET', '/api/users/@me', 200, { user: { id: 1 } }), /does not match/);
  assert.throws(() => checkAnswer('GET', '/api/servers/x', 403, { message: 'no error field' }), /does not match/);
  assert.throws(() => checkAnswer('GET', '/api/nowhere', 200, {}), /has no GET \/api\/nowhere/);
  assert.doesNotThrow(() => checkAnswer('GET', '/api/nowhere', 404, { error: 'Rota não encontrada' }));
  assert.doesNotThrow(() => checkAnswer('GET', '/api/health', 200, { ok: true, version: '0.1.0', database: true }));
  assert.throws(() => checkAnswer('GET', '/api/health', 200, { ok: true, version: '0.1.0' }), /database/);
});

test('GET /api/openapi.json serves the document, to anyone', async () => {
  const srv = await startServer();
  try {
    const r = await api(srv.url, 'GET', '/api/openapi.json');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /^application\/json/);
    assert.equal(r.text, fs.readFileSync(DOC_PATH, 'utf8'));
  } finally {
    const s = await srv.stop();
    assert.equal(s.code, 0, srv.stderr);
  }
});
