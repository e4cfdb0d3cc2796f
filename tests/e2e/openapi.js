// Checks every JSON answer the suites receive against docs/openapi.json: the route must be in
// the document, and the body must match the schema of its status (or the route's default).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Ajv2020 = require('ajv/dist/2020').default;

const DOC_PATH = path.join(__dirname, '..', '..', 'docs', 'openapi.json');
const doc = JSON.parse(fs.readFileSync(DOC_PATH, 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(doc, 'openapi.json');

// JSON Pointer escaping of one path segment.
const esc = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');

// Operations by method, literal segments first (as the router matches /members/@me before :uid).
const operations = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((method) => ({
  method: method.toUpperCase(),
  path: p,
  literals: p.split('/').filter((s) => s && !s.startsWith('{')).length,
  re: new RegExp('^' + p.replace(/\{[^}]+\}/g, '[^/]+').replace(/[.@]/g, '\\$&') + '$'),
}))).sort((a, b) => b.literals - a.literals);

function operationOf(method, urlPath) {
  return operations.find((o) => o.method === method && o.re.test(urlPath));
}

const compiled = new Map();
function validatorFor(op, status) {
  const responses = doc.paths[op.path][op.method.toLowerCase()].responses;
  const key = responses[String(status)] ? String(status) : 'default';
  const id = `${op.method} ${op.path} ${key}`;
  if (!compiled.has(id)) {
    const content = responses[key].content;
    const ref = content
      ? `openapi.json#/paths/${esc(op.path)}/${op.method.toLowerCase()}/responses/${key}/content/application~1json/schema`
      : null;
    compiled.set(id, ref ? ajv.compile({ $ref: ref }) : null);
  }
  return { key, validate: compiled.get(id) };
}

// Throws when a JSON answer of /api does not match the document.
function checkAnswer(method, url, status, body) {
  const urlPath = url.split('?')[0];
  if (!urlPath.startsWith('/api/') || body === null) return;
  const op = operationOf(method, urlPath);
  if (!op) {
    if (status >= 400 && typeof body.error === 'string') return; // unknown routes: 404/405 {error}
    throw new Error(`docs/openapi.json has no ${method} ${urlPath} (answered ${status})`);
  }
  if (status >= 200 && status < 300 && !doc.paths[op.path][op.method.toLowerCase()].responses[String(status)])
    throw new Error(`docs/openapi.json: ${method} ${op.path} has no ${status} response`);
  const { key, validate } = validatorFor(op, status);
  if (validate && !validate(body)) {
    const errs = validate.errors.slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    throw new Error(`${method} ${urlPath} ${status} does not match docs/openapi.json (${op.path} ${key}): ${errs}\n${JSON.stringify(body).slice(0, 500)}`);
  }
}

module.exports = { doc, checkAnswer, operationOf, DOC_PATH };
