// The shell: tabs, the browser history, the language switch and the keyboard, routed to the
// game modules. A module exports `start(section, params)`, and optionally `currentUrl()`
// (its address), `onUrl(params, state)` (the browser went back or forward to one of its
// addresses) and `onKey(event)` (true when it used the key).
import { applyI18n, getLang, setLang, t } from './i18n.js';
import { typing, glyphWord, chineseFontReady } from './ui.js';
import * as xiangqi from './xiangqi.js';
import * as review from './review.js';
import * as twixt from './twixt.js';
import * as cheesy from './cheesy.js';
import * as marine from './marine.js';
// Generation on demand: fills the Xiangqi analysis when a material has no tables.
import './generate.js';

const modules = { xiangqi, review, twixt, cheesy, marine };
const started = {};
let active = null;

function tabOf(path) {
  const name = path.replace(/^\/+/, '').split('/')[0];
  return modules[name] ? name : 'xiangqi';
}

function setTitle() {
  document.title = `${t('app.title')} · ${t(`tab.${active}`)}`;
}

/// Shows a tab (starting its module the first time); with `push`, as a new history entry.
/// Gives true when the module was started now.
function show(name, push) {
  active = name;
  for (const key of Object.keys(modules)) {
    document.getElementById(key).hidden = key !== name;
    document.querySelector(`nav a[data-tab=${key}]`).classList.toggle('active', key === name);
  }
  const fresh = !started[name];
  // The new entry first: a module starting may write its state into the current entry.
  if (push) history.pushState({ tab: name }, '', (!fresh && modules[name].currentUrl?.()) || `/${name}`);
  if (fresh) {
    started[name] = true;
    modules[name].start(document.getElementById(name), new URLSearchParams(location.search));
    if (push && modules[name].currentUrl) history.replaceState(history.state, '', modules[name].currentUrl());
  }
  setTitle();
  return fresh;
}

document.querySelectorAll('nav a').forEach((a) => a.addEventListener('click', (e) => {
  e.preventDefault();
  if (a.dataset.tab !== active) show(a.dataset.tab, true);
}));

window.addEventListener('popstate', (e) => {
  const name = e.state?.tab ?? tabOf(location.pathname);
  if (!show(name, false)) modules[name].onUrl?.(new URLSearchParams(location.search), e.state);
});

document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || typing(e)) return;
  if (modules[active]?.onKey?.(e)) e.preventDefault();
});

function showLang() {
  const button = document.getElementById('lang');
  const other = getLang() === 'zh' ? 'en' : 'zh';
  // 中文 drawn from glyphs.js: it must read on a machine without Chinese fonts.
  button.replaceChildren(other === 'zh' ? glyphWord('中文', 16) : 'English');
  button.lang = other;
  button.dataset.to = other;
  applyI18n(document);
  if (active) setTitle();
}

document.getElementById('lang').addEventListener('click', async () => {
  const next = getLang() === 'zh' ? 'en' : 'zh';
  if (next === 'zh') await chineseFontReady();
  setLang(next);
  showLang();
});

// Chinese is drawn once its font is there (a moment: it comes from this server).
if (getLang() === 'zh') await chineseFontReady();
showLang();
history.replaceState({ ...history.state, tab: tabOf(location.pathname) }, '');
show(tabOf(location.pathname), false);
