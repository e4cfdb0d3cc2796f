// The emoji the page knows by name: the picker's list (each with its Portuguese words) and the
// :shortcodes: that message text turns into emoji, the first word of each and Discord's English
// names for the common ones. Pure data: markdown.js and Node's tests read it.
export const EMOJI = [
  ['👍', 'joinha positivo sim curtir'], ['👎', 'negativo não'], ['❤️', 'coração amor'], ['😂', 'rindo chorando risada'],
  ['🎉', 'festa comemorar parabéns'], ['🔥', 'fogo quente incrível'], ['😮', 'surpreso uau'], ['😢', 'triste choro'],
  ['😡', 'bravo raiva'], ['🙏', 'obrigado por favor reza'], ['👏', 'palmas aplausos'], ['💯', 'cem perfeito'],
  ['✅', 'feito certo ok'], ['❌', 'errado não x'], ['👀', 'olhos olhando vendo'], ['🤔', 'pensando hmm dúvida'],
  ['😀', 'sorriso feliz'], ['😁', 'sorriso dentes'], ['😅', 'suor nervoso'], ['😊', 'sorriso corado'],
  ['😍', 'apaixonado olhos coração'], ['😎', 'óculos escuros legal'], ['🥳', 'festa chapéu'], ['😴', 'dormindo sono'],
  ['🤯', 'cabeça explodindo chocado'], ['🥲', 'sorriso lágrima'], ['😬', 'careta tenso'], ['🙃', 'de cabeça para baixo ironia'],
  ['😉', 'piscadela'], ['😇', 'anjo inocente'], ['🤗', 'abraço'], ['🤝', 'aperto de mão acordo'],
  ['💪', 'força músculo'], ['🙌', 'mãos para cima viva'], ['👋', 'tchau olá aceno'], ['✌️', 'paz vitória'],
  ['🤞', 'dedos cruzados sorte'], ['👌', 'ok perfeito'], ['🫡', 'continência sim senhor'], ['🤷', 'sei lá não sei'],
  ['💙', 'coração azul'], ['💚', 'coração verde'], ['💛', 'coração amarelo'], ['🖤', 'coração preto'],
  ['⭐', 'estrela'], ['✨', 'brilho mágico'], ['⚡', 'raio rápido'], ['☀️', 'sol'],
  ['🌧️', 'chuva'], ['🌈', 'arco-íris'], ['🍕', 'pizza'], ['☕', 'café'],
  ['🍺', 'cerveja'], ['🎂', 'bolo aniversário'], ['⚽', 'futebol bola'], ['🏆', 'troféu campeão'],
  ['🎵', 'música nota'], ['🎮', 'jogo videogame'], ['💻', 'computador código'], ['📌', 'fixar alfinete'],
  ['📢', 'anúncio megafone'], ['❓', 'pergunta'], ['❗', 'exclamação importante'], ['⚠️', 'aviso atenção'],
  ['🚀', 'foguete lançamento'], ['🐛', 'bug inseto erro'], ['🔧', 'ferramenta conserto'], ['🧠', 'cérebro inteligente'],
  ['💡', 'ideia lâmpada'], ['📅', 'calendário data'], ['⏰', 'despertador hora'], ['🔒', 'cadeado seguro'],
  ['🐶', 'cachorro'], ['🐱', 'gato'], ['🦜', 'papagaio'], ['🌵', 'cacto'],
  ['🇧🇷', 'brasil bandeira'], ['🇵🇹', 'portugal bandeira'], ['💀', 'caveira morri'], ['🤡', 'palhaço'],
];

const ENGLISH = {
  thumbsup: '👍', '+1': '👍', thumbsdown: '👎', '-1': '👎', heart: '❤️', joy: '😂', tada: '🎉', fire: '🔥',
  open_mouth: '😮', cry: '😢', rage: '😡', pray: '🙏', clap: '👏', '100': '💯', white_check_mark: '✅', x: '❌',
  eyes: '👀', thinking: '🤔', grinning: '😀', grin: '😁', sweat_smile: '😅', blush: '😊', heart_eyes: '😍',
  sunglasses: '😎', partying_face: '🥳', sleeping: '😴', exploding_head: '🤯', wink: '😉', innocent: '😇',
  hugs: '🤗', handshake: '🤝', muscle: '💪', raised_hands: '🙌', wave: '👋', v: '✌️', crossed_fingers: '🤞',
  ok_hand: '👌', shrug: '🤷', star: '⭐', sparkles: '✨', zap: '⚡', sunny: '☀️', rainbow: '🌈', pizza: '🍕',
  coffee: '☕', beer: '🍺', birthday: '🎂', soccer: '⚽', trophy: '🏆', rocket: '🚀', bug: '🐛', wrench: '🔧',
  brain: '🧠', bulb: '💡', lock: '🔒', dog: '🐶', cat: '🐱', skull: '💀', clown_face: '🤡', pushpin: '📌', warning: '⚠️',
};

// :name: → the emoji, for a name typed between colons (a-z, 0-9, _, + and -).
export const SHORTCODES = new Map([...EMOJI.map(([e, words]) => [words.split(' ')[0], e]), ...Object.entries(ENGLISH)]);
