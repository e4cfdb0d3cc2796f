// The pages' two languages: one catalogue each (i18n-pt.js, i18n-en.js), the same keys in both.
// The language is the account's locale when there is one, else the browser's; Portuguese for a
// Portuguese locale, English for any other. The API's own error texts stay Portuguese: a page
// words what it shows by the answer's status instead (t('error.<status>')).
import { EN } from './i18n-en.js';
import { PT } from './i18n-pt.js';

const CATALOGUES = { pt: PT, en: EN };
let lang = 'pt';

export function languageOf(locales) {
  const first = (Array.isArray(locales) ? locales : [locales]).find(Boolean) || 'pt-BR';
  return /^pt\b/i.test(first) ? 'pt' : 'en';
}

// Chooses the language and says it on <html lang>.
export function useLanguage(locales = navigator.languages) {
  lang = languageOf(locales);
  document.documentElement.lang = lang === 'pt' ? 'pt-BR' : 'en';
  return lang;
}

// The text for key with {name}s filled from vars; the key itself when neither catalogue has it.
export function t(key, vars = {}) {
  const text = CATALOGUES[lang][key] ?? PT[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ''));
}

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
