// The chat page's Markdown (src/web/static/markdown.js): what each mark becomes, and hostile
// input (nested quotes, unclosed fences, javascript: links, 10,000 asterisks) that must stay
// text, safe and quick. The parser has no DOM: it runs here as the page runs it.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { pageModule } = require('./helpers');

let parseMarkdown;
test.before(async () => { ({ parseMarkdown } = await pageModule('markdown.js')); });
const parse = (text) => JSON.parse(JSON.stringify(parseMarkdown(text)));
const text = (v) => ({ t: 'text', v });
const p = (...c) => ({ t: 'p', c });

test('inline marks: bold, italic, underline, strikethrough, spoiler, code', () => {
  assert.deepEqual(parse('**negrito** e *itálico*'), [p({ t: 'b', c: [text('negrito')] }, text(' e '), { t: 'i', c: [text('itálico')] })]);
  assert.deepEqual(parse('_um_ __dois__ ~~três~~ ||quatro|| `cinco`'), [p(
    { t: 'i', c: [text('um')] }, text(' '), { t: 'u', c: [text('dois')] }, text(' '), { t: 's', c: [text('três')] }, text(' '),
    { t: 'spoiler', c: [text('quatro')] }, text(' '), { t: 'code', v: 'cinco' })]);
  assert.deepEqual(parse('**um *dois* três**'), [p({ t: 'b', c: [text('um '), { t: 'i', c: [text('dois')] }, text(' três')] })], 'nested');
  assert.deepEqual(parse('`**não**`'), [p({ t: 'code', v: '**não**' })], 'nothing inside code');
  assert.deepEqual(parse('\\*literal\\*'), [p(text('*literal*'))], 'escaped');
  assert.deepEqual(parse('2 * 3 * 4'), [p(text('2 * 3 * 4'))], 'marks need text against them');
});

test('blocks: lines, headings, lists, quotes, code blocks', () => {
  assert.deepEqual(parse('a\nb'), [p(text('a'), { t: 'br' }, text('b'))]);
  assert.deepEqual(parse('# Título\n## Sub'), [{ t: 'h', level: 1, c: [text('Título')] }, { t: 'h', level: 2, c: [text('Sub')] }]);
  assert.deepEqual(parse('- um\n- dois\n1. três'), [{ t: 'ul', start: 1, items: [[text('um')], [text('dois')]] }, { t: 'ol', start: 1, items: [[text('três')]] }]);
  assert.deepEqual(parse('> citado\n> também\nfora'), [{ t: 'quote', c: [p(text('citado')), p(text('também'))] }, p(text('fora'))]);
  assert.deepEqual(parse('```js\nlet a = "**x**";\n```'), [{ t: 'pre', lang: 'js', v: 'let a = "**x**";' }]);
  assert.deepEqual(parse('>>> tudo\n# isto também'), [{ t: 'quote', c: [p(text('tudo')), { t: 'h', level: 1, c: [text('isto também')] }] }]);
});

test('links: bare and masked, http and https only; mentions', () => {
  assert.deepEqual(parse('veja https://praca.example/a?b=1.'), [p(text('veja '), { t: 'link', href: 'https://praca.example/a?b=1', c: [text('https://praca.example/a?b=1')] }, text('.'))]);
  assert.deepEqual(parse('[o site](https://praca.example)'), [p({ t: 'link', href: 'https://praca.example/', c: [text('o site')] })]);
  assert.deepEqual(parse('oi @ana_b, tudo?'), [p(text('oi '), { t: 'mention', v: 'ana_b' }, text(', tudo?'))]);
  assert.deepEqual(parse('email@ana.com'), [p(text('email@ana.com'))], 'not a mention inside a word');
});

test('hostile input stays text: javascript: links, HTML, nested quotes, unclosed fences', () => {
  for (const bad of ['[clique](javascript:alert(1))', '[x](data:text/html,<script>alert(1)</script>)', 'javascript:alert(1)', '[x]( https://a)']) {
    const tree = JSON.stringify(parse(bad));
    assert.ok(!tree.includes('"t":"link"'), bad);
  }
  assert.deepEqual(parse('<img src=x onerror=alert(1)>'), [p(text('<img src=x onerror=alert(1)>'))], 'HTML is text');
  assert.deepEqual(parse('> > > fundo'), [{ t: 'quote', c: [p(text('> > fundo'))] }], 'quotes do not nest');
  assert.deepEqual(parse('```\nsem fim\n**x**'), [p(text('```'), { t: 'br' }, text('sem fim'), { t: 'br' }, { t: 'b', c: [text('x')] })], 'an unclosed fence is text');
});

test('10,000 asterisks and other pathological runs are quick and lose nothing', () => {
  for (const input of ['*'.repeat(10000), '_'.repeat(10000), '**a'.repeat(3000), '|'.repeat(9999), '`'.repeat(10000), '['.repeat(5000) + ']('.repeat(2000), '>'.repeat(10000)]) {
    const t0 = process.hrtime.bigint();
    const tree = parse(input);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const flat = JSON.stringify(tree);
    assert.ok(flat.length > 0);
    // Every character is still there, as text or as the marks around it.
    const chars = (nodes) => nodes.reduce((n, x) => n + (x.v ? x.v.length : 0) + (x.c ? chars(x.c) : 0) + (x.items ? x.items.reduce((k, it) => k + chars(it), 0) : 0), 0);
    assert.ok(chars(tree) > 0, input.slice(0, 10));
    assert.ok(ms < 2000, `${input.slice(0, 5)}…: ${ms} ms`); // a generous bound: quadratic blow-ups take minutes
  }
});

test('nesting is bounded', () => {
  const deep = '**'.repeat(20) + 'x' + '**'.repeat(20);
  let tree = parse(deep)[0].c;
  let depth = 0;
  while (tree && tree[0] && tree[0].c) { tree = tree[0].c; depth++; }
  assert.ok(depth <= 9, `depth ${depth}`);
});

test(':shortcodes: become their emoji, by their Portuguese or Discord name; unknown ones, code and times stay', () => {
  assert.deepEqual(parse('oi :joinha: e :thumbsup: :tada:'), [p(text('oi 👍 e 👍 🎉'))]);
  assert.deepEqual(parse('`:fogo:` :nada: 10:30:00'), [p({ t: 'code', v: ':fogo:' }, text(' :nada: 10:30:00'))]);
  assert.deepEqual(parse('**:fogo:**'), [p({ t: 'b', c: [text('🔥')] })]);
  const many = ':joinha:'.repeat(5000);
  assert.equal(parse(many)[0].c[0].v, '👍'.repeat(5000), 'in one pass');
});
