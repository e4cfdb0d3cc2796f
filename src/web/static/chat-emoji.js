// The reaction picker: any of the common emoji, found by their Portuguese names, the person's
// recent ones first (kept in this browser). A reaction must be one Unicode emoji (the server
// checks); these are.
import { $, el } from './common.js';

const EMOJI = [
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
const RECENT_KEY = 'praca-recent-emoji';
const RECENT_MAX = 8;

function recentEmoji() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) || '[]');
    return Array.isArray(list) ? list.filter((e) => EMOJI.some(([x]) => x === e)).slice(0, RECENT_MAX) : [];
  } catch (_) {
    return [];
  }
}

function rememberEmoji(emoji) {
  const list = [emoji, ...recentEmoji().filter((e) => e !== emoji)].slice(0, RECENT_MAX);
  localStorage.setItem(RECENT_KEY, JSON.stringify(list));
}

// Opens the picker for a message; resolves with the emoji chosen, or null.
export function pickEmoji() {
  const dialog = $('#emoji-picker');
  const search = $('#emoji-search');
  const paint = () => {
    const q = search.value.trim().toLowerCase();
    const recent = q ? [] : recentEmoji();
    const found = EMOJI.filter(([e, name]) => !q || name.includes(q) || e === q).map(([e]) => e);
    const all = [...recent, ...found.filter((e) => !recent.includes(e))];
    $('#emoji-grid').replaceChildren(...all.map((e) => el('button', {
      type: 'button', class: 'emoji', text: e, title: (EMOJI.find(([x]) => x === e) || ['', ''])[1],
      'aria-label': `Reagir com ${e}`, onclick: () => dialog.close(e),
    })));
    $('#emoji-none').hidden = all.length > 0;
  };
  search.value = '';
  search.oninput = paint;
  search.onkeydown = (ev) => {
    if (ev.key === 'Enter') {
      ev.preventDefault();
      const first = $('#emoji-grid button');
      if (first) dialog.close(first.textContent);
    }
  };
  paint();
  dialog.returnValue = '';
  dialog.showModal();
  search.focus();
  return new Promise((resolve) => dialog.addEventListener('close', () => {
    const chosen = dialog.returnValue || null;
    if (chosen) rememberEmoji(chosen);
    resolve(chosen);
  }, { once: true }));
}
