// Shared by the pages: API calls with the session cookie, permission names, small DOM helpers.
import { has, language, t } from './i18n.js';

export const PERMISSIONS = [
  'ADMINISTRADOR', 'GERENCIAR_SERVIDOR', 'GERENCIAR_CANAIS', 'GERENCIAR_CARGOS', 'EXPULSAR_MEMBROS', 'BANIR_MEMBROS',
  'MODERAR_MEMBROS', 'CRIAR_CONVITE', 'VER_CANAL', 'ENVIAR_MENSAGENS', 'GERENCIAR_MENSAGENS', 'ADICIONAR_REACOES',
  'FIXAR_MENSAGENS', 'MENCIONAR_TODOS', 'CONECTAR_VOZ', 'FALAR', 'USAR_COMANDOS', 'GERENCIAR_WEBHOOKS', 'VER_AUDITORIA',
].map((name, bit) => ({ name, label: t(`perm.${name}`), bit: 1 << bit }));

// The look chosen in Conta (light or dark), kept in this browser; none follows the system.
export const THEME_KEY = 'praca-theme';
export function applyTheme(theme = localStorage.getItem(THEME_KEY) || '') {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}
if (typeof document !== 'undefined') applyTheme(); // (the rules' tests load this file in Node)

// Set in sessionStorage while an account is being deleted: the sign-in page then says it was.
export const ERASED_KEY = 'praca-erased';

export class ApiError extends Error {
  constructor(status, body) {
    super(errorText(status, body && body.error));
    this.status = status;
    this.body = body;
  }
}

// The API words its errors in Portuguese (its interface says so): a Portuguese page shows them
// as they come; another words them itself, by status and, for a refused field, by the field.
function errorText(status, said) {
  if (said && language() === 'pt') return said;
  const field = status === 400 && said && /^([\w.[\]]+): /.exec(said);
  if (field) return t('error.field', { field: field[1] });
  if (has(`error.${status}`)) return t(`error.${status}`);
  return status >= 500 ? t('error.5xx') : t('error.other');
}

// The last reads' answers, newest last: a service worker that starts after the page has read
// them is handed them (chat-offline.js), so that what the page already shows is kept for a visit
// without a network, without reading anything again.
export const lastReads = [];
const READS_KEPT = 30;
const READ_BYTES_KEPT = 256 * 1024;

// Same-origin calls: the browser sends the session cookie and the Origin header the server's
// CSRF guard expects.
export async function api(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: {} };
  if (body instanceof FormData) {
    init.body = body; // the browser writes its multipart type
  } else if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch { // the browser's own words ("Failed to fetch") never reach the person
    throw Object.assign(new Error(t('error.network')), { network: true });
  }
  let data = null, text = '';
  try {
    text = await res.text();
    data = JSON.parse(text);
  } catch { /* no body */ }
  if (!res.ok) throw new ApiError(res.status, data);
  if (method === 'GET' && text.length <= READ_BYTES_KEPT) {
    const at = lastReads.findIndex((r) => r.path === path);
    if (at >= 0) lastReads.splice(at, 1);
    if (lastReads.push({ path, text }) > READS_KEPT) lastReads.shift();
  }
  return data;
}

// The signed-in person, or a trip to the sign-in page that comes back here.
export async function requireSession() {
  try {
    return (await api('GET', '/api/users/@me')).user;
  } catch (e) {
    if (e.status === 401) {
      location.assign('/login?next=' + encodeURIComponent(location.pathname + location.search));
      return new Promise(() => {}); // leaving
    }
    throw e;
  }
}

export function $(selector, root = document) { return root.querySelector(selector); }

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, '');
    else if (v !== false && v != null) node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

export function showError(box, err) {
  box.textContent = err instanceof Error ? err.message : String(err);
  box.hidden = false;
}

export function permissionBoxes(container, bits, { name = 'perm', checked = true, only } = {}) {
  container.replaceChildren();
  for (const p of PERMISSIONS) {
    if (only !== undefined && !(only & p.bit)) continue;
    const input = el('input', { type: 'checkbox', name, value: String(p.bit), 'data-perm': p.name });
    input.checked = checked && (bits & p.bit) !== 0;
    container.append(el('label', { class: 'check' }, input, p.label));
  }
}

export function checkedBits(container) {
  let bits = 0;
  for (const input of container.querySelectorAll('input[type=checkbox]:checked')) bits |= Number(input.value);
  return bits;
}

// A file the person chose, as a data: URL (icons are sent that way).
export function readAsDataUrl(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(new Error(t('error.read.file')));
    reader.readAsDataURL(file);
  });
}

export async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = t('copy.done');
  } catch {
    button.textContent = t('copy.select');
  }
}
