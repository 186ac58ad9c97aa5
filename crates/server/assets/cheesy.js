// Cheesy Chess: a board editor, the solve, and the line animated ply by ply.
import { el, api, examples } from './app.js';

let root, rows = 8, cols = 8, fields = [], king = null, pawn = null, tool = 'K', answer = null, ply = 0, timer = null;

export function start(section) {
  root = section;
  const tools = [['K', 'King'], ['P', 'Pawn'], ['.', 'Open'], ['D', 'Dangerous'], ['F', 'Forbidden']];
  section.append(el('div', { class: 'layout' },
    el('div', {},
      el('div', { class: 'panel' }, el('h2', {}, 'Board'),
        el('div', { class: 'row' }, 'Place:', ...tools.map(([t, name]) => el('button', { 'data-tool': t, class: t === tool ? 'on' : '', onclick: () => setTool(t) }, name))),
        el('div', { class: 'row' }, 'Rows', el('input', { type: 'number', id: 'cheesy-rows', min: 1, max: 64, value: rows, style: 'width:4.5rem', onchange: resize }),
          'Columns', el('input', { type: 'number', id: 'cheesy-cols', min: 1, max: 64, value: cols, style: 'width:4.5rem', onchange: resize }),
          el('button', { onclick: async () => load((await examples()).cheesy) }, 'Example')),
        el('div', { id: 'cheesy-board', style: 'overflow:auto' }),
        el('div', { class: 'row' }, 'To move', el('select', { id: 'cheesy-to-move' }, el('option', { value: 'white' }, 'White (king)'), el('option', { value: 'black' }, 'Black (pawn)')),
          el('button', { class: 'primary', id: 'cheesy-solve', onclick: solve }, 'Solve')),
        el('div', { id: 'cheesy-error' }),
        el('p', { class: 'muted', style: 'font-size:.82rem' }, 'The king (K) steps to any neighbour it may enter and wins by taking the pawn; the pawn (P) steps down and wins on the bottom row. The king may not enter D fields, nor the two fields diagonally below the pawn (d). Nobody enters F.'))),
    el('div', {},
      el('div', { class: 'panel' }, el('h2', {}, 'Answer'), el('div', { id: 'cheesy-verdict', class: 'muted' }, 'Edit the board and press Solve.'),
        el('div', { class: 'row' }, el('button', { onclick: () => show(0) }, '«'), el('button', { onclick: () => show(ply - 1) }, '◀'),
          el('button', { id: 'cheesy-play', onclick: play }, 'Play'), el('button', { onclick: () => show(ply + 1) }, '▶'), el('button', { onclick: () => answer && show(answer.line.length) }, '»')),
        el('div', { id: 'cheesy-line', class: 'steps' })),
      el('div', { class: 'panel' }, el('h2', {}, 'Board file'), el('textarea', { id: 'cheesy-text', rows: 8, oninput: (e) => load(e.target.value, true) })))));
  examples().then((ex) => load(ex.cheesy));
}

function setTool(t) {
  tool = t;
  root.querySelectorAll('[data-tool]').forEach((b) => b.classList.toggle('on', b.dataset.tool === t));
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
  root.querySelector('#cheesy-rows').value = rows; root.querySelector('#cheesy-cols').value = cols;
  if (!fromBox) root.querySelector('#cheesy-text').value = text.endsWith('\n') ? text : text + '\n';
  answer = null; drawEditor();
}

function resize() {
  const r = Math.max(1, Math.min(64, Number(root.querySelector('#cheesy-rows').value) || 1));
  const c = Math.max(1, Math.min(64, Number(root.querySelector('#cheesy-cols').value) || 1));
  fields = Array.from({ length: r }, (_, i) => Array.from({ length: c }, (_, j) => fields[i]?.[j] ?? '.'));
  rows = r; cols = c;
  if (king && (king[0] >= r || king[1] >= c)) king = null;
  if (pawn && (pawn[0] >= r || pawn[1] >= c)) pawn = null;
  syncText(); drawEditor();
}

function boardText() {
  return fields.map((row, r) => row.map((f, c) => {
    if (king && king[0] === r && king[1] === c) return 'K';
    if (pawn && pawn[0] === r && pawn[1] === c) return f === 'D' ? 'p' : 'P';
    return f;
  }).join('')).join('\n') + '\n';
}

function syncText() { root.querySelector('#cheesy-text').value = boardText(); }

function click(r, c) {
  if (tool === 'K') king = [r, c];
  else if (tool === 'P') pawn = [r, c];
  else {
    fields[r][c] = tool;
    if (king && king[0] === r && king[1] === c) king = null;
    if (pawn && pawn[0] === r && pawn[1] === c && tool === 'F') pawn = null;
  }
  answer = null; syncText(); drawEditor();
}

function drawEditor() {
  clearInterval(timer);
  const text = boardText().trimEnd().split('\n');
  drawGrid(text, (r, c) => click(r, c));
  root.querySelector('#cheesy-line').replaceChildren();
}

function drawGrid(lines, onClick) {
  const grid = el('div', { class: 'grid', id: 'cheesy-grid', style: `grid-template-columns: repeat(${lines[0].length}, 40px)` });
  lines.forEach((line, r) => [...line].forEach((ch, c) => {
    const cls = ch === 'F' ? 'F' : ch === 'D' || ch === 'p' ? 'D' : ch === 'd' ? 'd' : '';
    const label = ch === 'K' ? el('span', { class: 'piece-k' }, '♔') : ch === 'P' || ch === 'p' ? el('span', { class: 'piece-p' }, '♟') : '';
    grid.append(el('div', { class: `${cls} ${onClick ? 'path' : ''}`, 'data-r': r, 'data-c': c, title: `(${c + 1},${lines.length - r})`, onclick: onClick ? () => onClick(r, c) : undefined }, label));
  }));
  root.querySelector('#cheesy-board').replaceChildren(grid);
}

async function solve() {
  const box = root.querySelector('#cheesy-error');
  box.replaceChildren();
  clearInterval(timer);
  try {
    answer = await api(`/api/cheesy/solve?to_move=${root.querySelector('#cheesy-to-move').value}`, root.querySelector('#cheesy-text').value);
  } catch (e) {
    box.append(el('div', { class: 'error', id: 'cheesy-error-text' }, e.message));
    return;
  }
  const v = root.querySelector('#cheesy-verdict');
  v.className = '';
  v.replaceChildren(el('div', { class: 'verdict', id: 'cheesy-result' }, `${answer.winner} wins in ${answer.plies} plies`),
    el('div', { class: 'muted' }, `${answer.to_move} to move: ${answer.value}. End: ${answer.ending}.`));
  root.querySelector('#cheesy-line').replaceChildren(el('div', { 'data-ply': 0, onclick: () => show(0) }, 'Start'),
    ...answer.line.map((p) => el('div', { 'data-ply': p.ply, onclick: () => show(p.ply) }, `${p.ply}. ${p.side} ${p.move}${p.capture ? ' (takes)' : ''} — ${p.value}`)));
  show(0);
}

function show(k) {
  if (!answer) return;
  ply = Math.max(0, Math.min(answer.line.length, k));
  drawGrid(ply === 0 ? answer.board : answer.line[ply - 1].board, null);
  root.querySelectorAll('#cheesy-line div').forEach((d) => d.classList.toggle('current', Number(d.dataset.ply) === ply));
}

function play() {
  if (!answer) return;
  clearInterval(timer);
  if (ply >= answer.line.length) show(0);
  timer = setInterval(() => { if (ply >= answer.line.length) clearInterval(timer); else show(ply + 1); }, 600);
}
