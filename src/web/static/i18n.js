// The pages' two languages: one catalogue each (i18n-pt.js, i18n-en.js), the same keys in both.
// The language is chosen once, when this module loads, so that every module may word its tables
// at load: the last account language this browser saw (kept by rememberLanguage) or else the
// browser's own; Portuguese for a Portuguese locale, English for any other. The API's own error
// texts stay Portuguese: a page words what it shows by the answer's status and field instead.
import { EN } from './i18n-en.js';
import { PT } from './i18n-pt.js';

const CATALOGUES = { pt: PT, en: EN };
const KEPT = 'praca-lang';

export function languageOf(locales) {
  const first = (Array.isArray(locales) ? locales : [locales]).find(Boolean) || 'pt-BR';
  return /^pt\b/i.test(first) ? 'pt' : 'en';
}

function kept() {
  try {
    return localStorage.getItem(KEPT);
  } catch {
    return null;
  }
}

let lang = languageOf(kept() || (typeof navigator === 'undefined' ? 'pt-BR' : navigator.languages));
if (typeof document !== 'undefined') document.documentElement.lang = lang === 'pt' ? 'pt-BR' : 'en';

export const language = () => lang;
// The BCP 47 tag dates and numbers are formatted in.
export const locale = () => (lang === 'pt' ? 'pt-BR' : 'en-US');

// Chooses the language and says it on <html lang>.
export function useLanguage(locales = kept() || navigator.languages) {
  lang = languageOf(locales);
  document.documentElement.lang = lang === 'pt' ? 'pt-BR' : 'en';
  return lang;
}

// The account's locale (null: the browser's) becomes this browser's language from the next load;
// true when it differs from the one the page was drawn in.
export function rememberLanguage(accountLocale) {
  try {
    if (accountLocale) localStorage.setItem(KEPT, accountLocale);
    else localStorage.removeItem(KEPT);
  } catch {
    // private mode: the browser's language stays
  }
  return languageOf(accountLocale || navigator.languages) !== lang;
}

export const has = (key) => key in PT;

// The text for key with {name}s filled from vars; the key itself when neither catalogue has it.
export function t(key, vars = {}) {
  const text = CATALOGUES[lang][key] ?? PT[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ''));
}

// A count's words: key.one for 1, key.other otherwise, {n} filled with the count.
export const tn = (key, n, vars = {}) => t(`${key}.${n === 1 ? 'one' : 'other'}`, { ...vars, n: n.toLocaleString(locale()) });

// What the page's HTML asks for: a data-i18n attribute (a key) for an element's text, and
// data-i18n-attr="placeholder:key, aria-label:key" for its attributes.
export function translatePage(root = document) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-attr]'))
    for (const pair of node.dataset.i18nAttr.split(',')) {
      const [attr, key] = pair.split(':').map((x) => x.trim());
      node.setAttribute(attr, t(key));
    }
  const title = document.querySelector('title[data-i18n]');
  if (title) document.title = title.textContent;
}
