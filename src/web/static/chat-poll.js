// Polls: one in a message (its answers as bars to choose, counts live, the end by its author) and
// the form that makes one from the composer's ＋. A choice is sent at once and replaces the
// person's earlier one; choosing it again takes it back, as on Slack and Telegram.
import { ask, askWith } from './chat-dialog.js';
import { chat } from './chat-store.js';
import { $, api, el, showError } from './common.js';
import { locale, t, tn } from './i18n.js';

const ANSWERS_MAX = 10;
const DURATIONS = [1, 4, 8, 24, 72, 168]; // hours, as Discord offers

const ended = (poll) => poll.ended || Date.now() >= Date.parse(poll.endsAt);

// "termina em 3 h", "em 2 dias", "em 40 min".
function timeLeft(poll) {
  const ms = Date.parse(poll.endsAt) - Date.now();
  const fmt = new Intl.RelativeTimeFormat(locale(), { numeric: 'always' });
  const [value, unit] = ms >= 48 * 3600e3 ? [Math.round(ms / 86400e3), 'day'] : ms >= 3600e3 ? [Math.round(ms / 3600e3), 'hour'] : [Math.max(1, Math.round(ms / 60e3)), 'minute'];
  return t('poll.ends', { when: fmt.format(value, unit) });
}

async function choose(m, path, id, redraw, box) {
  const poll = m.poll;
  const mine = poll.myVotes || [];
  const next = mine.includes(id) ? mine.filter((x) => x !== id) : poll.multiple ? [...mine, id] : [id];
  try {
    const answer = await api('PUT', `${path}/${m.id}/poll/vote`, { answerIds: next });
    redraw({ ...m, poll: answer.poll });
  } catch (e) {
    if (e.status === 400 && /terminou/.test(e.message)) redraw({ ...m, poll: { ...poll, ended: true } });
    else showError(box.querySelector('.poll-error'), e);
  }
}

async function end(m, path, redraw, box) {
  if (!(await ask(t('poll.end.ask'), t('poll.end.text'), { confirm: t('poll.end') }))) return;
  try {
    const answer = await api('POST', `${path}/${m.id}/poll/end`);
    redraw({ ...m, poll: { ...answer.poll, myVotes: m.poll.myVotes } });
  } catch (e) {
    showError(box.querySelector('.poll-error'), e);
  }
}

// The poll of message m (at path, its messages' route); redraw(m) shows the message changed.
export function pollView(m, path, redraw) {
  const poll = m.poll;
  const over = ended(poll);
  const mine = new Set(poll.myVotes || []);
  const total = poll.answers.reduce((n, a) => n + a.count, 0);
  const top = Math.max(0, ...poll.answers.map((a) => a.count));
  const box = el('section', { class: over ? 'poll ended' : 'poll', 'aria-label': t('poll.label') },
    el('div', { class: 'poll-question', text: poll.question }),
    el('div', { class: 'poll-hint muted small', text: over ? t('poll.closed') : t(poll.multiple ? 'poll.choose.many' : 'poll.choose.one') }));
  const list = el('ul', { class: 'poll-answers', role: 'list' });
  for (const a of poll.answers) {
    const share = total ? Math.round((a.count / total) * 100) : 0;
    const chosen = mine.has(a.id);
    const winner = over && a.count > 0 && a.count === top;
    const fill = el('span', { class: 'poll-fill' });
    fill.style.width = `${share}%`; // through the CSSOM: the page's policy allows no style attribute
    const button = el('button', { type: 'button', class: `poll-answer${chosen ? ' mine' : ''}${winner ? ' winner' : ''}`,
                                  'aria-pressed': String(chosen), 'data-answer': String(a.id),
                                  onclick: () => choose(m, path, a.id, redraw, box) },
      fill,
      el('span', { class: 'poll-mark', 'aria-hidden': 'true', text: chosen ? '✓' : '' }),
      a.emoji ? el('span', { class: 'poll-emoji', text: a.emoji }) : '',
      el('span', { class: 'poll-text', text: a.text }),
      el('span', { class: 'poll-count', text: t('poll.share', { n: a.count, share }) }));
    button.disabled = over;
    list.append(el('li', {}, button));
  }
  box.append(list);
  const votes = tn('poll.voters', poll.voters);
  const foot = el('div', { class: 'poll-foot muted small' }, el('span', { text: over ? `${votes} · ${t('poll.closed.short')}` : `${votes} · ${timeLeft(poll)}` }));
  if (!over && m.fromId === chat.me.id) {
    foot.append(el('button', { type: 'button', class: 'link-button poll-end', text: t('poll.end'), onclick: () => end(m, path, redraw, box) }));
  }
  box.append(foot, el('div', { class: 'error poll-error', role: 'alert', hidden: '' }));
  return box;
}

function answerRow(n) {
  const input = el('input', { type: 'text', maxlength: '55', required: '', autocomplete: 'off', class: 'poll-answer-input',
                              placeholder: t('poll.answer.placeholder', { n }), 'aria-label': t('poll.answer.placeholder', { n }) });
  const li = el('li', {}, input);
  li.append(el('button', { type: 'button', class: 'link-button', text: '✕', 'aria-label': t('poll.answer.remove', { n }), onclick: () => {
    const list = li.parentNode;
    if (list.children.length <= 2) return; // a poll has two answers at least
    li.remove();
    renumber(list);
  } }));
  return li;
}

function renumber(list) {
  [...list.children].forEach((li, i) => {
    const input = li.querySelector('input');
    input.placeholder = t('poll.answer.placeholder', { n: i + 1 });
    input.setAttribute('aria-label', input.placeholder);
  });
  $('#poll-answer-add').hidden = list.children.length >= ANSWERS_MAX;
}

// The form from the composer's ＋: a question, 2–10 answers, how long, one choice or several.
// sent(message) shows the message made.
export async function createPoll(path, sent) {
  const question = el('input', { type: 'text', id: 'poll-question', maxlength: '300', required: '', autocomplete: 'off', placeholder: t('poll.question.placeholder') });
  const list = el('ul', { class: 'poll-form-answers' }, answerRow(1), answerRow(2));
  const add = el('button', { type: 'button', class: 'link-button', id: 'poll-answer-add', text: t('poll.answer.add') });
  add.addEventListener('click', () => {
    if (list.children.length >= ANSWERS_MAX) return;
    const li = answerRow(list.children.length + 1);
    list.append(li);
    li.querySelector('input').focus();
    add.hidden = list.children.length >= ANSWERS_MAX;
  });
  const duration = el('select', { id: 'poll-duration' }, ...DURATIONS.map((h) =>
    el('option', { value: String(h), text: h < 24 ? t('poll.hours', { n: h }) : t(h === 24 ? 'poll.day' : 'poll.days', { n: h / 24 }) })));
  duration.value = '24';
  const multiple = el('input', { type: 'checkbox', id: 'poll-multiple' });
  const fields = [
    el('label', { for: 'poll-question', text: t('poll.question') }), question,
    el('span', { class: 'label', text: t('poll.answers') }), list, add,
    el('label', { for: 'poll-duration', text: t('poll.duration') }), duration,
    el('label', { class: 'check' }, multiple, ` ${t('poll.multiple')}`),
  ];
  setTimeout(() => question.focus());
  if (!(await askWith(t('poll.create'), fields, { confirm: t('poll.post') }))) return;
  const body = { poll: { question: question.value.trim(), multiple: multiple.checked, durationHours: Number(duration.value),
                         answers: [...list.querySelectorAll('input')].map((i) => ({ text: i.value.trim() })).filter((a) => a.text) } };
  $('#send-error').hidden = true;
  try {
    sent((await api('POST', path, body)).message);
  } catch (e) {
    showError($('#send-error'), e);
  }
}
