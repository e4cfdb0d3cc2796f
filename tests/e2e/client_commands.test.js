// The chat page's slash commands (src/web/static/chat-commands.js): what is typed read as the
// API's interaction body, every invalid option explained before sending, and what the palette
// lists as the person types. No DOM: it runs here as the page runs it.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { pageModule } = require('./helpers');

const plain = (v) => JSON.parse(JSON.stringify(v));
let commandBody;
let paletteFor;
let browserLocale;
test.before(async () => {
  ({ commandBody, paletteFor } = await pageModule('chat-commands.js'));
  ({ browserLocale } = await pageModule('chat-apps.js'));
});

const COMMANDS = [
  { applicationId: 'app1', name: 'clima', description: 'O tempo numa cidade', options: [
    { name: 'dias', description: 'Quantos dias', type: 'integer' },
    { name: 'cidade', description: 'Qual cidade', type: 'string', required: true, choices: [{ name: 'Rio', value: 'rio' }, { name: 'São Paulo', value: 'sao paulo' }] },
  ] },
  { applicationId: 'app1', name: 'cargo', description: 'Dá um cargo', options: [
    { name: 'pessoa', description: 'Quem', type: 'user', required: true },
    { name: 'qual', description: 'Que cargo', type: 'role', required: true },
    { name: 'aviso', description: 'Avisar no canal', type: 'boolean' },
    { name: 'onde', description: 'Canal', type: 'channel' },
    { name: 'nota', description: 'Um número', type: 'number' },
  ] },
  { applicationId: 'app2', name: 'ping', description: 'Pong', options: [] },
];
const RESOLVE = {
  user: (s) => ({ ana: 'u-ana' })[s] || null,
  channel: (s) => ({ geral: 'c-geral' })[s] || null,
  role: (s) => ({ mod: 'r-mod' })[s] || null,
};
const body = (text) => plain(commandBody(text, COMMANDS, RESOLVE));
const refused = (text, message) => assert.throws(() => commandBody(text, COMMANDS, RESOLVE), { message });

test('a typed command becomes the interaction body, with each option of its type', () => {
  assert.deepEqual(body('/ping'), { type: 'command', applicationId: 'app2', commandName: 'ping', options: [] });
  assert.deepEqual(body('/clima cidade=rio dias=3'), { type: 'command', applicationId: 'app1', commandName: 'clima',
    options: [{ name: 'cidade', value: 'rio' }, { name: 'dias', value: 3 }] });
  assert.deepEqual(body('/cargo pessoa=@ana qual=@mod aviso=sim onde=#geral nota=2,5').options, [
    { name: 'pessoa', value: 'u-ana' }, { name: 'qual', value: 'r-mod' }, { name: 'aviso', value: true },
    { name: 'onde', value: 'c-geral' }, { name: 'nota', value: 2.5 }]);
});

test('a choice is taken by its value or its name, and a quoted value keeps its spaces', () => {
  assert.deepEqual(body('/clima cidade="São Paulo"').options, [{ name: 'cidade', value: 'sao paulo' }]);
  assert.deepEqual(body('/clima cidade="sao paulo"').options, [{ name: 'cidade', value: 'sao paulo' }]);
  assert.deepEqual(body('/clima cidade=Rio').options, [{ name: 'cidade', value: 'rio' }]);
});

test('as typed on Discord: opção:valor runs to the next option, spaces and colons included', () => {
  assert.deepEqual(body('/clima cidade:São Paulo dias:3'), { type: 'command', applicationId: 'app1', commandName: 'clima',
    options: [{ name: 'cidade', value: 'sao paulo' }, { name: 'dias', value: 3 }] });
  assert.deepEqual(body('/cargo pessoa:@ana qual:mod aviso:sim nota=2').options.map((o) => o.value), ['u-ana', 'r-mod', true, 2]);
  const list = [{ applicationId: 'app3', type: 'chat', name: 'lembrar', description: 'L', options: [
    { name: 'texto', description: 'O quê', type: 'string', required: true },
    { name: 'quando', description: 'Quando', type: 'string' }] }];
  const lembrar = (text) => plain(commandBody(text, list, RESOLVE)).options;
  assert.deepEqual(lembrar('/lembrar texto:Regar as plantas'), [{ name: 'texto', value: 'Regar as plantas' }]);
  assert.deepEqual(lembrar('/lembrar texto:Regar as plantas às 10:30, ou: antes quando:amanhã cedo'),
    [{ name: 'texto', value: 'Regar as plantas às 10:30, ou: antes' }, { name: 'quando', value: 'amanhã cedo' }]);
  assert.deepEqual(lembrar('/lembrar quando:já texto:"entre aspas"'), [{ name: 'quando', value: 'já' }, { name: 'texto', value: 'entre aspas' }]);
  assert.deepEqual(lembrar('/lembrar texto=uma'), [{ name: 'texto', value: 'uma' }], 'the old form stays');
  assert.throws(() => commandBody('/lembrar texto:', list, RESOLVE), /texto: falta o valor \(texto:…\)/);
  assert.equal(lembrar(`/lembrar texto:${'a b:c '.repeat(20000)}`)[0].value.length, 6 * 20000 - 1, 'a long text is read whole');
});

test('every invalid option is explained before anything is sent', () => {
  refused('/nada', /Comando \/nada não existe aqui\. Disponíveis: \/clima \/cargo \/ping/);
  refused('/clima', /\/clima: falta cidade/);
  refused('/clima cidade=recife', /cidade: escolha Rio, São Paulo/);
  refused('/clima cidade=rio dias=2.5', /dias: deve ser um número inteiro/);
  refused('/clima cidade=rio dias=muitos', /dias: deve ser um número inteiro/);
  refused('/clima cidade=rio cor=azul', /\/clima não tem a opção cor; tem dias, cidade/);
  refused('/clima cidade=rio cidade=rio', /cidade: a opção aparece duas vezes/);
  refused('/clima cidade=', /cidade: falta o valor/);
  refused('/clima cidade', /cidade: falta o valor/);
  refused('/cargo pessoa=@bia qual=mod', /pessoa: pessoa @bia não existe neste servidor/);
  refused('/cargo pessoa=ana qual=admin', /qual: cargo admin não existe neste servidor/);
  refused('/cargo pessoa=ana qual=mod aviso=talvez', /aviso: responda sim ou não/);
  refused('/cargo pessoa=ana qual=mod onde=#nada', /onde: canal #nada não existe/);
  refused('/clima cidade="rio"x', /não entendi “x”/);
});

test('the palette lists commands by prefix, then the chosen one\'s options required first, then choices', () => {
  const names = (p) => p && p.items.map((i) => i.insert);
  assert.deepEqual(names(paletteFor('/', COMMANDS)), ['/clima ', '/cargo ', '/ping ']);
  assert.deepEqual(names(paletteFor('/c', COMMANDS)), ['/clima ', '/cargo ']);
  assert.deepEqual(names(paletteFor('/clima', COMMANDS)), ['/clima ']);
  assert.equal(paletteFor('/x', COMMANDS), null);
  assert.equal(paletteFor('olá', COMMANDS), null);
  assert.equal(paletteFor('/nada com espaço', COMMANDS), null);
  assert.deepEqual(names(paletteFor('/clima ', COMMANDS)), ['/clima cidade:', '/clima dias:']);
  assert.deepEqual(names(paletteFor('/clima di', COMMANDS)), ['/clima dias:']);
  assert.deepEqual(names(paletteFor('/clima cidade=rio ', COMMANDS)), ['/clima cidade=rio dias:']);
  assert.deepEqual(names(paletteFor('/clima cidade:', COMMANDS)), ['/clima cidade:rio ', '/clima cidade:sao paulo ']);
  assert.deepEqual(names(paletteFor('/clima cidade=', COMMANDS)), ['/clima cidade:rio ', '/clima cidade:sao paulo ']);
  assert.deepEqual(names(paletteFor('/clima dias:2 cidade:s', COMMANDS)), ['/clima dias:2 cidade:sao paulo ']);
  // What each option has so far, for the form the palette shows.
  assert.deepEqual(plain(paletteFor('/clima dias:2 cidade:s', COMMANDS).args.map((a) => [a.name, a.value])), [['dias', '2'], ['cidade', 's']]);
  assert.deepEqual(names(paletteFor('/ping ', COMMANDS)), []);
  assert.equal(paletteFor('/clima ', COMMANDS).command.name, 'clima');
});

test('odd input: 10,000 options, an unclosed quote, a run of equals signs', () => {
  refused(`/clima ${'a=1 '.repeat(10000)}`, /não tem a opção a/);
  assert.deepEqual(body('/clima cidade="Rio').options, [{ name: 'cidade', value: 'rio' }]); // the quote ends with the text
  refused(`/clima ${'='.repeat(10000)}`, /não entendi/);
  assert.deepEqual(paletteFor(`/clima ${'dias=1 '.repeat(10000)}`, COMMANDS).items.map((i) => i.option.name), ['cidade']);
});

test('menus stay out of the palette; names in the person\'s language are listed, typed and sent by their own name', () => {
  const list = [
    { applicationId: 'app1', type: 'chat', name: 'clima', nameLocalized: 'weather', description: 'Previsão', descriptionLocalized: 'Forecast', options: [] },
    { applicationId: 'app1', type: 'message', name: 'Traduzir', nameLocalized: 'Translate', description: '', options: [] },
  ];
  const names = (p) => p.items.map((i) => i.insert);
  assert.deepEqual(names(paletteFor('/', list)), ['/weather ']);
  assert.equal(paletteFor('/T', list), null, 'a menu command is not a slash command');
  assert.deepEqual(plain(commandBody('/weather', list, RESOLVE)), { type: 'command', applicationId: 'app1', commandName: 'clima', options: [] });
  assert.deepEqual(plain(commandBody('/clima', list, RESOLVE)).commandName, 'clima', 'the default name works too');
  assert.throws(() => commandBody('/Traduzir', list, RESOLVE), /não existe aqui/);
  assert.equal(browserLocale(['en-AU', 'pt-BR']), 'en-US', 'the same language, another region');
  assert.equal(browserLocale(['pt-br']), 'pt-BR');
  assert.equal(browserLocale(['tlh']), null);
});

test('an autocompleted option shows the bot\'s suggestions, or says it is asking, and fills the value', () => {
  const list = [{ applicationId: 'app1', type: 'chat', name: 'busca', description: 'B', options: [
    { name: 'termo', description: 'O quê', type: 'string', required: true, autocomplete: true },
    { name: 'limite', description: 'Quantos', type: 'integer' }] }];
  const asking = paletteFor('/busca termo=sal', list, () => ({ choices: [], asking: true }));
  assert.equal(asking.asking, true);
  assert.deepEqual(plain(asking.suggest.args.map((a) => [a.name, a.value])), [['termo', 'sal']]);
  assert.deepEqual(asking.items, []);
  const got = paletteFor('/busca limite=3 termo=sal', list, (command, option) => {
    assert.equal(option.name, 'termo');
    return { choices: [{ name: 'Salvador', value: 'salvador' }, { name: 'São Luís', value: 'sao luis' }], asking: false };
  });
  assert.deepEqual(got.items.map((i) => i.insert), ['/busca limite=3 termo:salvador ', '/busca limite=3 termo:sao luis ']);
  assert.equal(paletteFor('/busca limite=', list, () => assert.fail('not asked for a plain option')).suggest, undefined);
});
