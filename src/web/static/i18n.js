// The pages' two languages: one catalogue each (i18n-pt.js, i18n-en.js), the same keys in both.
// The language is chosen once, when this module loads, so that every module may word its tables
// at load: the last account language this browser saw (kept by rememberLanguage) or else the
// browser's own; Portuguese for a Portuguese locale, English for any other. Only that language's
// catalogue is loaded. The API's own error texts stay Portuguese: a page words what it shows by
// the answer's status and field instead.
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

const lang = languageOf(kept() || (typeof document === 'undefined' ? 'pt-BR' : navigator.languages)); // Node: the tests'
const words = lang === 'pt' ? (await import('./i18n-pt.js')).PT : (await import('./i18n-en.js')).EN;
if (typeof document !== 'undefined') document.documentElement.lang = lang === 'pt' ? 'pt-BR' : 'en';

export const language = () => lang;
// The BCP 47 tag dates and numbers are formatted in.
export const locale = () => (lang === 'pt' ? 'pt-BR' : 'en-US');

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

export const has = (key) => key in words;

// The text for key with {name}s filled from vars; the key itself when the catalogue lacks it (a
// test fails on any such key a page asks for).
export function t(key, vars = {}) {
  const text = words[key] ?? key;
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
