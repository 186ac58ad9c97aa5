// Cheesy Chess: a board editor, the solve, and the line animated ply by ply.
import { el, api, examples, labelledGrid } from './ui.js';
import { t, onLang, getLang } from './i18n.js';

let root, rows = 8, cols = 8, fields = [], king = null, pawn = null, tool = 'K', answer = null, ply = 0, timer = null, request = 0;
const $ = (sel) => root.querySelector(sel);

export function start(section) {
  root = section;
  const tools = [['K', 'cheesy.king'], ['P', 'cheesy.pawn'], ['.', 'cheesy.open'], ['D', 'cheesy.dangerous'], ['F', 'cheesy.forbidden']];
  section.append(el('div', { class: 'layout' },
    el('div', {},
      el('div', { class: 'panel board-panel' }, el('h2', { i18n: 'cheesy.board' }),
        el('div', { class: 'row' }, el('span', { i18n: 'cheesy.place' }), ...tools.map(([k, key]) => el('button', { 'data-tool': k, class: k === tool ? 'on' : '', onclick: () => setTool(k), i18n: key }))),
        el('div', { class: 'row' }, el('span', { i18n: 'cheesy.rows' }), el('input', { type: 'number', id: 'cheesy-rows', min: 1, max: 64, value: rows, class: 'num', onchange: resize }),
          el('span', { i18n: 'cheesy.cols' }), el('input', { type: 'number', id: 'cheesy-cols', min: 1, max: 64, value: cols, class: 'num', onchange: resize }),
          el('button', { id: 'cheesy-example', onclick: async () => load((await examples()).cheesy), i18n: 'cheesy.example' })),
        el('div', { id: 'cheesy-board', class: 'grid-wrap' }),
        el('div', { class: 'row' }, el('span', { i18n: 'cheesy.toMove' }), el('select', { id: 'cheesy-to-move', onchange: () => clearAnswer() }, el('option', { value: 'white', i18n: 'cheesy.white' }), el('option', { value: 'black', i18n: 'cheesy.black' })),
          el('button', { class: 'primary', id: 'cheesy-solve', onclick: solve, i18n: 'cheesy.solve' })),
        el('div', { id: 'cheesy-error' }),
        el('p', { class: 'muted small', i18n: 'cheesy.help' }))),
    el('div', {},
      el('div', { class: 'panel' }, el('h2', { i18n: 'cheesy.answer' }), el('div', { id: 'cheesy-verdict', class: 'muted', i18n: 'cheesy.prompt' }),
        el('div', { class: 'row nav' }, el('button', { id: 'cheesy-first', onclick: () => show(0) }, '«'), el('button', { id: 'cheesy-prev', onclick: () => show(ply - 1), i18nTitle: 'key.back' }, '◀'),
          el('button', { id: 'cheesy-play', onclick: play, i18n: 'cheesy.play' }), el('button', { id: 'cheesy-next', onclick: () => show(ply + 1), i18nTitle: 'key.forward' }, '▶'),
          el('button', { id: 'cheesy-last', onclick: () => answer && show(answer.line.length) }, '»')),
        el('div', { id: 'cheesy-line', class: 'steps' })),
      el('div', { class: 'panel' }, el('h2', { i18n: 'cheesy.file' }), el('textarea', { id: 'cheesy-text', rows: 8, 'aria-label': 'board file', oninput: (e) => load(e.target.value, true) })))));
  onLang(() => { if (answer) { renderAnswer(); show(ply); } });
  syncNav();
  // The example, solved at once (as the Twixt page replays its example).
  examples().then((ex) => { if (!$('#cheesy-text').value) { load(ex.cheesy); solve(); } });
}

/// ← and → step through the line.
export function onKey(e) {
  if (!answer) return false;
  if (e.key === 'ArrowLeft') { show(ply - 1); return true; }
  if (e.key === 'ArrowRight') { show(ply + 1); return true; }
  if (e.key === ' ') { play(); return true; }
  return false;
}

function setTool(k) {
  tool = k;
  root.querySelectorAll('[data-tool]').forEach((b) => b.classList.toggle('on', b.dataset.tool === k));
}

function load(text, fromBox) {
  const lines = text.split('\n').map((l) => l.trimEnd()).filter((l) => l.length);
  if (!lines.length) return;
  rows = lines.length; cols = Math.max(...lines.map((l) => l.length));
  fields = []; king = pawn = null;
  lines.forEach((line, r) => {
    fields.push([]);
    for (let c = 0; c < cols; c++) {
      const ch = line[c] ?? '.';
      if (ch === 'K') king = [r, c];
      if (ch === 'P' || ch === 'p') pawn = [r, c];
      fields[r].push(ch === 'D' || ch === 'p' ? 'D' : ch === 'F' ? 'F' : ch === 'K' || ch === 'P' || ch === '.' ? '.' : ch);
    }
  });
  $('#cheesy-rows').value = rows; $('#cheesy-cols').value = cols;
  if (!fromBox) $('#cheesy-text').value = text.endsWith('\n') ? text : `${text}\n`;
  clearAnswer();
}

function resize() {
  const r = Math.max(1, Math.min(64, Number($('#cheesy-rows').value) || 1));
  const c = Math.max(1, Math.min(64, Number($('#cheesy-cols').value) || 1));
  fields = Array.from({ length: r }, (_, i) => Array.from({ length: c }, (_, j) => fields[i]?.[j] ?? '.'));
  rows = r; cols = c;
  if (king && (king[0] >= r || king[1] >= c)) king = null;
  if (pawn && (pawn[0] >= r || pawn[1] >= c)) pawn = null;
  syncText(); clearAnswer();
}

function boardText() {
  return `${fields.map((row, r) => row.map((f, c) => {
    if (king && king[0] === r && king[1] === c) return 'K';
    if (pawn && pawn[0] === r && pawn[1] === c) return f === 'D' ? 'p' : 'P';
    return f;
  }).join('')).join('\n')}\n`;
}

function syncText() { $('#cheesy-text').value = boardText(); }

/// A click on the board edits it, also while a solution is shown (which it then clears).
function click(r, c) {
  if (tool === 'K') king = [r, c];
  else if (tool === 'P') pawn = [r, c];
  else {
    fields[r][c] = tool;
    if (king && king[0] === r && king[1] === c) king = null;
    if (pawn && pawn[0] === r && pawn[1] === c && tool === 'F') pawn = null;
  }
  syncText(); clearAnswer();
}

/// Back to the editor: the board as edited, no answer, no error.
function clearAnswer() {
  clearInterval(timer);
  request += 1;
  answer = null;
  ply = 0;
  const v = $('#cheesy-verdict');
  v.className = 'muted';
  v.dataset.i18n = 'cheesy.prompt';
  v.textContent = t('cheesy.prompt');
  $('#cheesy-line').replaceChildren();
  $('#cheesy-error').replaceChildren();
  drawGrid(boardText().trimEnd().split('\n'));
  syncNav();
}

function drawGrid(lines) {
  const width = Math.max(...lines.map((l) => l.length));
  const cells = [];
  lines.forEach((line, r) => [...line.padEnd(width, '.')].forEach((ch, c) => {
    const cls = ch === 'F' ? 'F' : ch === 'D' || ch === 'p' ? 'D' : ch === 'd' ? 'd' : '';
    const label = ch === 'K' ? el('span', { class: 'piece-k' }, '♔') : ch === 'P' || ch === 'p' ? el('span', { class: 'piece-p' }, '♟') : '';
    cells.push(el('div', { class: `cell ${cls} path`, 'data-r': r, 'data-c': c, title: `(${c + 1},${lines.length - r})`, onclick: () => click(r, c) }, label));
  }));
  const show = (n, i) => n <= 20 || i === 0 || (i + 1) % 5 === 0;
  const children = labelledGrid(lines.length, width, cells, (c) => (show(width, c) ? String(c + 1) : ''), (r) => (show(lines.length, lines.length - 1 - r) ? String(lines.length - r) : ''));
  const grid = el('div', { class: 'grid labels-bottom', id: 'cheesy-grid', style: `--cols:${width};--rows:${lines.length}` });
  // Column labels below the board (x), row labels on the left (y, from the bottom), as the
  // moves name the squares: K(3,1)-(4,2).
  const head = children.slice(0, width + 1);
  grid.append(...children.slice(width + 1), ...head);
  $('#cheesy-board').replaceChildren(grid);
}

async function solve() {
  const id = ++request;
  const box = $('#cheesy-error');
  box.replaceChildren();
  clearInterval(timer);
  let a;
  try {
    a = await api(`/api/cheesy/solve?to_move=${$('#cheesy-to-move').value}`, $('#cheesy-text').value);
  } catch (e) {
    if (id !== request) return;
    // An error clears the answer of the last board.
    clearAnswer();
    $('#cheesy-error').append(el('div', { class: 'error', id: 'cheesy-error-text' }, e.message));
    return;
  }
  if (id !== request) return;
  answer = a;
  renderAnswer();
  show(0);
}

const side = (s) => t(`cheesy.${s.toLowerCase()}Side`);

/// A value such as `win in 3 plies` in the interface's language.
function valueText(v) {
  if (getLang() === 'en') return v;
  const m = /^(win|loss|draw) in (\d+) pl(?:y|ies)$/.exec(v);
  return m ? t(`value.${m[1]}`, Number(m[2])) : v;
}

function renderAnswer() {
  const v = $('#cheesy-verdict');
  v.className = '';
  delete v.dataset.i18n;
  v.replaceChildren(el('div', { class: 'verdict', id: 'cheesy-result' }, t('cheesy.wins', side(answer.winner), answer.plies)),
    el('div', { class: 'muted', id: 'cheesy-detail' }, t('cheesy.detail', side(answer.to_move), valueText(answer.value), t(`cheesy.end.${endingKey(answer.ending)}`))));
  $('#cheesy-line').replaceChildren(el('div', { 'data-ply': 0, onclick: () => show(0), i18n: 'cheesy.start' }),
    ...answer.line.map((p) => el('div', { 'data-ply': p.ply, onclick: () => show(p.ply) }, `${p.ply}. ${side(p.side)} ${p.move}${p.capture ? ` (${t('cheesy.takes')})` : ''} — ${valueText(p.value)}`)));
}

function endingKey(text) {
  if (text.includes('captured')) return 'captured';
  if (text.includes('no square')) return 'stuck';
  if (text.includes('bottom row and cannot')) return 'home';
  return 'blocked';
}

function show(k) {
  if (!answer) return;
  ply = Math.max(0, Math.min(answer.line.length, k));
  drawGrid(ply === 0 ? answer.board : answer.line[ply - 1].board);
  root.querySelectorAll('#cheesy-line div').forEach((d) => d.classList.toggle('current', Number(d.dataset.ply) === ply));
  syncNav();
}

function syncNav() {
  const end = answer ? answer.line.length : 0;
  $('#cheesy-first').disabled = $('#cheesy-prev').disabled = !answer || ply === 0;
  $('#cheesy-next').disabled = $('#cheesy-last').disabled = !answer || ply === end;
  $('#cheesy-play').disabled = !answer || end === 0;
}

function play() {
  if (!answer || !answer.line.length) return;
  clearInterval(timer);
  if (ply >= answer.line.length) show(0);
  timer = setInterval(() => { if (!answer || ply >= answer.line.length) clearInterval(timer); else show(ply + 1); }, 600);
}
