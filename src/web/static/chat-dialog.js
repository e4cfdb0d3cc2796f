// The page's own confirmations and questions, never the browser's: a modal dialog (focus kept
// inside, Esc cancels), the focus given back to what had it. Each answers a promise:
// ask() true or false; askText() the text typed, askChoice() {choice, words}, or null when
// cancelled.
import { el } from './common.js';
import { t } from './i18n.js';

function open({ title, text, confirm, danger, field, extra = [] }) {
  const back = document.activeElement;
  const heading = el('h2', { id: 'ask-title', text: title });
  const form = el('form', { method: 'dialog', class: 'ask-form' });
  if (text) form.append(el('p', { class: 'ask-text', text }));
  if (field) form.append(el('label', { for: 'ask-field', text: field.label }), field.input);
  form.append(...extra);
  const yes = el('button', { type: 'submit', value: 'yes', class: danger ? 'danger' : '', text: confirm });
  const no = el('button', { type: 'submit', value: 'no', class: 'secondary', text: t('dialog.cancel'), formnovalidate: '' });
  form.append(el('div', { class: 'actions' }, no, yes));
  const dialog = el('dialog', { class: 'ask', 'aria-labelledby': 'ask-title' }, heading, form);
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      const answer = dialog.returnValue === 'yes';
      dialog.remove();
      if (back && back.isConnected) back.focus();
      resolve(answer);
    });
    dialog.showModal();
    (field ? field.input : danger ? no : yes).focus();
  });
}

export function ask(title, text, { confirm = t('dialog.confirm'), danger = false } = {}) {
  return open({ title, text, confirm, danger });
}

export async function askText(title, label, { value = '', confirm = t('dialog.save'), required = false, maxLength = 100, text = '' } = {}) {
  const input = el('input', { type: 'text', id: 'ask-field', maxlength: String(maxLength), autocomplete: 'off' });
  input.value = value;
  input.required = required;
  return (await open({ title, text, confirm, field: { label, input } })) ? input.value : null;
}

// Some of people ([{id, name, username}], those in `checked` already chosen), at most max, found
// by a filter; with nameLabel, a name for what they make too. {ids, name}, or null when
// cancelled or nobody was chosen.
export async function askPeople(title, people, { max, confirm, nameLabel, checked = [] } = {}) {
  const filter = el('input', { type: 'text', role: 'searchbox', id: 'ask-field', autocomplete: 'off' });
  filter.addEventListener('keydown', (e) => { if (e.key === 'Enter') e.preventDefault(); }); // a filter, not an answer
  const boxes = people.map((p) => el('input', { type: 'checkbox', value: p.id, id: `ask-p-${p.id}` }));
  for (const b of boxes) b.checked = checked.includes(b.value);
  const list = el('ul', { class: 'ask-people' }, ...people.map((p, i) => el('li', { 'data-find': `${p.name} ${p.username}`.toLowerCase() },
    boxes[i], el('label', { for: boxes[i].id, text: p.username && p.username !== p.name ? `${p.name} (@${p.username})` : p.name }))));
  const count = el('p', { class: 'muted small', 'aria-live': 'polite' });
  const paint = () => {
    const n = boxes.filter((b) => b.checked).length;
    count.textContent = t('people.chosen', { n, max });
    for (const b of boxes) b.disabled = !b.checked && n >= max;
  };
  list.addEventListener('change', paint);
  filter.addEventListener('input', () => {
    const q = filter.value.trim().toLowerCase();
    for (const li of list.children) li.hidden = !!q && !li.dataset.find.includes(q);
  });
  paint();
  const name = nameLabel ? el('input', { type: 'text', id: 'ask-name', maxlength: '100', autocomplete: 'off' }) : null;
  const extra = [...(name ? [el('label', { for: 'ask-name', text: nameLabel }), name] : []),
    people.length ? list : el('p', { class: 'muted small', text: t('people.none') }), count];
  const asked = await open({ title, confirm, field: { label: t('people.find'), input: filter }, extra });
  const ids = boxes.filter((b) => b.checked).map((b) => b.value);
  return asked && ids.length ? { ids, name: name ? name.value.trim() : '' } : null;
}

// A form of one's own (its fields built by the caller, read by it after): true when confirmed.
export function askWith(title, fields, { confirm = t('dialog.save'), text = '' } = {}) {
  return open({ title, text, confirm, extra: fields });
}

// One of choices ([value, name]) and words of one's own under it (optional).
export async function askChoice(title, label, choices, { wordsLabel, maxLength = 1000, confirm = t('dialog.confirm'), text = '' } = {}) {
  const input = el('select', { id: 'ask-field' }, ...choices.map(([value, name]) => el('option', { value, text: name })));
  const words = el('textarea', { id: 'ask-words', maxlength: String(maxLength), rows: '3' });
  const asked = await open({ title, text, confirm, field: { label, input }, extra: [el('label', { for: 'ask-words', text: wordsLabel }), words] });
  return asked ? { choice: input.value, words: words.value.trim() } : null;
}
