// The shell: tabs, routing between them, and helpers shared by the game modules.
import * as xiangqi from './xiangqi.js';
import * as twixt from './twixt.js';
import * as cheesy from './cheesy.js';
import * as marine from './marine.js';

const modules = { xiangqi, twixt, cheesy, marine };
const started = {};

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

export function svgEl(tag, attrs = {}, ...children) {
  const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/// Calls the API: the parsed JSON, or throws an Error with the server's message.
export async function api(path, body) {
  const init = body === undefined ? {} : { method: 'POST', body, headers: { 'content-type': 'text/plain' } };
  const res = await fetch(path, init);
  let json;
  try { json = await res.json(); } catch { throw new Error(`HTTP ${res.status}`); }
  if (!res.ok) throw new Error(json.error || `HTTP ${res.status}`);
  return json;
}

let examplesPromise;
export function examples() {
  examplesPromise ??= api('/api/examples');
  return examplesPromise;
}

function tabOf(path) {
  const name = path.replace(/^\/+/, '').split('/')[0];
  return modules[name] ? name : 'xiangqi';
}

export function show(name, push) {
  for (const [key] of Object.entries(modules)) {
    document.getElementById(key).hidden = key !== name;
    document.querySelector(`nav a[data-tab=${key}]`).classList.toggle('active', key === name);
  }
  if (push) history.pushState({}, '', modules[name].currentUrl?.() ?? `/${name}`);
  if (!started[name]) {
    started[name] = true;
    modules[name].start(document.getElementById(name), new URLSearchParams(location.search));
  }
  document.title = `endgame explorer · ${document.querySelector(`nav a[data-tab=${name}]`).textContent}`;
}

document.querySelectorAll('nav a').forEach((a) => a.addEventListener('click', (e) => {
  e.preventDefault();
  show(a.dataset.tab, true);
}));
window.addEventListener('popstate', () => {
  const name = tabOf(location.pathname);
  show(name, false);
  modules[name].onUrl?.(new URLSearchParams(location.search));
});
show(tabOf(location.pathname), false);
