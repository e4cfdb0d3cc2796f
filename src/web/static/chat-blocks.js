// Blocking, in the page: whom I blocked (read once, changed from a person's menu or Conta), their
// messages collapsed until shown one by one, and the list in Conta to lift a block.
import { ask } from './chat-dialog.js';
import { blockChanged, blocksRead, chat } from './chat-store.js';
import { toast } from './chat-ui.js';
import { $, api, el } from './common.js';
import { t } from './i18n.js';

let redraw = () => {}; // the shown messages drawn again (chat.js gives it)

export async function loadBlocks(repaint) {
  redraw = repaint;
  const { blocks } = await api('GET', '/api/users/@me/blocks');
  blocksRead(blocks.map((b) => b.userId));
  paintBlocks(blocks);
}

// Block (after asking) or unblock someone; the messages shown follow.
export async function toggleBlock(userId, name) {
  const on = !chat.blocked.has(userId);
  if (on && !(await ask(t('block.ask', { name }), t('block.ask.text'), { confirm: t('block.confirm'), danger: true }))) return;
  try {
    await api(on ? 'PUT' : 'DELETE', `/api/users/@me/blocks/${userId}`);
    blockChanged(userId, on);
    redraw();
    toast(t(on ? 'block.done' : 'block.undone', { name }));
    await loadBlocks(redraw);
  } catch (e) {
    toast(e);
  }
}

function paintBlocks(blocks) {
  const list = $('#blocks');
  if (!list) return;
  list.replaceChildren(...blocks.map((b) => el('li', {},
    el('span', {}, el('strong', { text: b.displayName || b.username }), el('span', { class: 'muted small', text: ` @${b.username}` })),
    el('button', { type: 'button', class: 'secondary small-button', text: t('block.lift'),
                   'aria-label': t('block.lift.label', { name: b.displayName || b.username }),
                   onclick: () => toggleBlock(b.userId, b.displayName || b.username) }))));
  $('#no-blocks').hidden = blocks.length > 0;
}
