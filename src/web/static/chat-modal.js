// A form a bot opens (INTERACTION_MODAL), shown as a dialog and submitted as modal_submit.
import { invoke } from './chat-composer.js';
import { $, el } from './common.js';
import { t } from './i18n.js';

// A select in a form: a list to pick one from, or several (Ctrl/⌘ or touch) when it allows.
function selectField(id, input) {
  const many = (input.maxValues || 1) > 1;
  const select = el('select', { id, 'data-id': input.customId, ...(many ? { multiple: '', size: String(Math.min(6, input.options.length)) } : {}) });
  if (!many) select.append(el('option', { value: '', text: input.placeholder || t('select.choose.more'), disabled: '', selected: '' }));
  select.append(...input.options.map((o) => el('option', { value: o.value, text: o.description ? `${o.label} — ${o.description}` : o.label })));
  select.required = input.required !== false && (input.minValues === undefined || input.minValues > 0);
  return select;
}

export function openModal(m) {
  const fields = $('#modal-fields');
  $('#modal-title').textContent = m.title;
  fields.replaceChildren();
  for (const row of m.components) {
    for (const input of row.components) {
      const id = `field-${input.customId}`;
      if (input.type === 3) { fields.append(el('label', { for: id, text: input.label || input.placeholder || input.customId }), selectField(id, input)); continue; }
      const field = input.style === 2
        ? el('textarea', { id, 'data-id': input.customId, maxlength: input.maxLength, placeholder: input.placeholder || '' })
        : el('input', { id, type: 'text', 'data-id': input.customId, maxlength: input.maxLength, placeholder: input.placeholder || '' });
      if (input.required !== false) field.required = true; // required unless the bot says not
      if (input.minLength) field.minLength = input.minLength;
      if (input.value) field.value = input.value;
      fields.append(el('label', { for: id, text: input.label }), field);
    }
  }
  const form = $('#modal-form');
  form.onsubmit = async (e) => {
    e.preventDefault();
    const values = [...fields.querySelectorAll('[data-id]')].map((f) => (f.tagName === 'SELECT'
      ? { customId: f.dataset.id, values: [...f.selectedOptions].map((o) => o.value).filter(Boolean) }
      : { customId: f.dataset.id, value: f.value }));
    $('#modal').close();
    await invoke({ type: 'modal_submit', applicationId: m.applicationId, customId: m.customId, values });
  };
  $('#modal').showModal();
}
