// The page's one menu: by its button on a desktop, a sheet from the bottom on a phone. Arrows
// move between its items, Esc or a click elsewhere closes it, and the focus goes back to the
// button. Items: {label, run(event), danger?}; head, when given, goes above them (a person's card).
import { el } from './common.js';

let openNow = null;

export function closeMenu() {
  if (!openNow) return;
  const { box, anchor, outside, keys } = openNow;
  openNow = null;
  box.remove();
  document.removeEventListener('mousedown', outside, true);
  document.removeEventListener('touchstart', outside, true);
  document.removeEventListener('keydown', keys, true);
  anchor.setAttribute('aria-expanded', 'false');
  if (anchor.isConnected) anchor.focus();
}

function moveFocus(box, step) {
  const items = [...box.querySelectorAll('.menu-item')];
  const at = items.indexOf(document.activeElement);
  const next = step === 'first' ? 0 : step === 'last' ? items.length - 1 : (at + step + items.length) % items.length;
  items[next]?.focus();
}

export function openMenu(anchor, title, items, head = null) {
  closeMenu();
  const sheet = matchMedia('(max-width: 639px)').matches;
  const box = el('div', { class: sheet ? 'menu sheet' : 'menu', role: 'menu', 'aria-label': title },
    head || el('div', { class: 'menu-title muted small', text: title }),
    ...items.map((item) => el('button', { type: 'button', role: 'menuitem', class: item.danger ? 'menu-item danger' : 'menu-item',
                                          text: item.label, onclick: (e) => { closeMenu(); item.run(e); } })));
  document.body.append(box);
  if (!sheet) { // below its button, or above it when it would pass the window's bottom
    const r = anchor.getBoundingClientRect();
    const h = box.offsetHeight;
    box.style.top = `${Math.max(8, r.bottom + 4 + h <= innerHeight - 8 ? r.bottom + 4 : Math.min(r.top - 4 - h, innerHeight - 8 - h))}px`;
    box.style.left = `${Math.max(8, Math.min(r.right - box.offsetWidth, innerWidth - 8 - box.offsetWidth))}px`;
  }
  const keys = (e) => {
    if (e.key === 'Escape') { e.preventDefault(); closeMenu(); }
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') { e.preventDefault(); moveFocus(box, e.key === 'ArrowDown' ? 1 : -1); }
    else if (e.key === 'Home' || e.key === 'End') { e.preventDefault(); moveFocus(box, e.key === 'Home' ? 'first' : 'last'); }
    else if (e.key === 'Tab') closeMenu();
  };
  openNow = { box, anchor, keys, outside: (e) => { if (!box.contains(e.target) && e.target !== anchor) closeMenu(); } };
  document.addEventListener('mousedown', openNow.outside, true);
  document.addEventListener('touchstart', openNow.outside, true);
  document.addEventListener('keydown', keys, true);
  anchor.setAttribute('aria-expanded', 'true');
  box.querySelector('.menu-item')?.focus();
}
