// A form a bot opens (INTERACTION_MODAL), shown as a dialog and submitted as modal_submit.
import { invoke } from './chat-composer.js';
import { $, el } from './common.js';

export function openModal(m) {
  const fields = $('#modal-fields');
  $('#modal-title').textContent = m.title;
  fields.replaceChildren();
  for (const row of m.components) {
    for (const input of row.components) {
      const id = `field-${input.customId}`;
      const field = input.style === 2
        ? el('textarea', { id, 'data-id': input.customId, maxlength: input.maxLength, placeholder: input.placeholder || '' })
        : el('input', { id, type: 'text', 'data-id': input.customId, maxlength: input.maxLength, placeholder: input.placeholder || '' });
      if (input.required) field.required = true;
      if (input.minLength) field.minLength = input.minLength;
      if (input.value) field.value = input.value;
      fields.append(el('label', { for: id, text: input.label }), field);
    }
  }
  const form = $('#modal-form');
  form.onsubmit = async (e) => {
    e.preventDefault();
    const values = [...fields.querySelectorAll('[data-id]')].map((f) => ({ customId: f.dataset.id, value: f.value }));
    $('#modal').close();
    await invoke({ type: 'modal_submit', applicationId: m.applicationId, customId: m.customId, values });
  };
  $('#modal').showModal();
}
