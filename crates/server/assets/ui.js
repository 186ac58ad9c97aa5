// Helpers every page shares: building elements, calling the API, copying text.
import { t } from './i18n.js';
import { GLYPHS } from './glyphs.js';

/// An HTML element: `attrs` are attributes, `on...` listeners, `i18n` a key of the string
/// table whose text the element shows (and shows again in the other language).
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === 'class') e.className = v;
    else if (k === 'i18n') { e.dataset.i18n = v; e.textContent = t(v); }
    else if (k === 'i18nTitle') { e.dataset.i18nTitle = v; e.title = t(v); }
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/// An SVG element.
export function svgEl(tag, attrs = {}, ...children) {
  const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/// An `<option>` whose text is a key of the string table.
export function option(value, key) {
  return el('option', { value, i18n: key });
}

/// An API failure: the server's message, the HTTP status and the answer's JSON (if any).
export class ApiError extends Error {
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/// `fetch` as the page sends every request: with `X-Endgame-Errors: ok`, so that the server
/// answers an error with status 200 and its own status in `X-Endgame-Status` (a position without
/// tables or a bad FEN is an answer the page explains, not a failed request for the browser's
/// console to log in red). Gives the response and the status the server meant.
export async function pageFetch(path, init = {}) {
  const res = await fetch(path, { ...init, headers: { ...(init.headers ?? {}), 'x-endgame-errors': 'ok' } });
  return { res, status: Number(res.headers.get('x-endgame-status')) || res.status };
}

/// Calls the API: the parsed JSON, or throws an ApiError with the server's message (or, when
/// the answer is not JSON, a sentence naming the HTTP status).
export async function api(path, body) {
  const init = body === undefined ? {} : { method: 'POST', body, headers: { 'content-type': 'text/plain' } };
  let res, status;
  try {
    ({ res, status } = await pageFetch(path, init));
  } catch {
    throw new ApiError(t('error.network'), 0, null);
  }
  const statusText = status === res.status ? res.statusText : '';
  let json;
  try { json = await res.json(); } catch { throw new ApiError(t('error.http', status, statusText), status, null); }
  if (status >= 400 || !res.ok) throw new ApiError(json.error || t('error.http', status, statusText), status, json);
  return json;
}

let examplesPromise;
/// The example inputs of every page (`/api/examples`), fetched once.
export function examples() {
  examplesPromise ??= api('/api/examples');
  return examplesPromise;
}

/// Copies `text` to the clipboard; true when it worked.
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Without the clipboard API (a page not served from a secure origin): a hidden text area.
    const area = el('textarea', { style: 'position:fixed;opacity:0' });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    area.remove();
    return ok;
  }
}

/// Shows `key`'s text on `button` for a moment, then its own text again.
export function flash(button, key) {
  const own = button.dataset.i18n;
  button.textContent = t(key);
  button.classList.add('flashed');
  clearTimeout(button.flashTimer);
  button.flashTimer = setTimeout(() => {
    button.classList.remove('flashed');
    button.textContent = t(own);
  }, 1500);
}

/// Whether a key press belongs to a text field (the page's shortcuts leave it alone).
export function typing(event) {
  const e = event.target;
  if (!(e instanceof HTMLElement)) return false;
  if (e.isContentEditable) return true;
  if (e.tagName === 'TEXTAREA' || e.tagName === 'SELECT') return true;
  return e.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'range'].includes(e.type);
}

/// Coordinates along a grid's edges: column labels on top, row labels on the left. `cells`
/// are the grid's cells row by row; gives the children of a grid with one more column and row.
export function labelledGrid(rows, cols, cells, colLabel, rowLabel) {
  const out = [el('div', { class: 'corner' })];
  for (let c = 0; c < cols; c++) out.push(el('div', { class: 'coord' }, colLabel(c)));
  for (let r = 0; r < rows; r++) {
    out.push(el('div', { class: 'coord' }, rowLabel(r)));
    out.push(...cells.slice(r * cols, (r + 1) * cols));
  }
  return out;
}

/// Loads the page's Chinese font (style.css's "Endgame Sans SC", assets/chinese.otf) before
/// Chinese text is drawn: Chromium may keep the empty boxes of text it drew while the font was
/// loading. Resolves also when the font cannot load (the machine's fonts then).
export function chineseFontReady() {
  return document.fonts ? document.fonts.load('1em "Endgame Sans SC"', '中文').catch(() => []) : Promise.resolve([]);
}

/// A word of characters from glyphs.js as an inline SVG `size` pixels high (for Chinese text
/// that must show without Chinese fonts, such as the language switch).
export function glyphWord(text, size, fill = 'currentColor') {
  const chars = [...text];
  const svg = svgEl('svg', { viewBox: `0 0 ${1000 * chars.length} 1000`, width: size * chars.length, height: size, class: 'glyph-word', role: 'img', 'aria-label': text });
  chars.forEach((ch, i) => svg.append(svgEl('path', { d: GLYPHS[ch], fill, transform: `translate(${1000 * i} 0)` })));
  return svg;
}
