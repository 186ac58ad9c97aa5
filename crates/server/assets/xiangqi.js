// Xiangqi: the board, every legal move with its exact result, the main line, the material's
// statistics, a position editor, and play against perfect play.
import { el, svgEl, api } from './app.js';

const CHARS = {
  K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
  k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒',
};
// WXF letters for the letters option (Elephant E, Horse H).
const LETTERS = { K: 'K', A: 'A', B: 'E', N: 'H', R: 'R', C: 'C', P: 'P' };
const EXAMPLES = [
  ['KRvK: Chariot against a lone General', '3k5/9/9/9/9/9/9/9/4R4/5K3 w'],
  ['KvKN: a lone General against a Horse', '3k5/9/9/9/9/3n5/9/9/9/3K5 w'],
  ['KCvKA: Cannon against an Advisor', '3ak4/9/9/9/9/9/9/4C4/9/3K5 w'],
  ['KPvKA: Soldier against an Advisor', '4ka3/9/4P4/9/9/9/9/9/9/3K5 w'],
  ['KRvKN: Chariot against a Horse', '4k4/9/4n4/9/9/9/9/9/4R4/3K5 w'],
];
const START_FEN = EXAMPLES[0][1];
const CELL = 54, PAD = 40;

let root;
let history = [];      // FENs played through
let at = -1;           // index into history
let answer = null;     // the API's answer for history[at]
let selected = null;   // square selected on the board ('e0')
let editing = false, editPiece = 'R', editBoard = null, editTurn = 'w';
let playing = null;    // 'w' or 'b': the human's side
let request = 0;

const files = 'abcdefghi';

/// A FEN's board as a map square -> letter, and the side to move.
export function parseFen(fen) {
  const [rows, turn = 'w'] = fen.trim().split(/\s+/);
  const board = {};
  const ranks = rows.split('/');
  ranks.forEach((row, i) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += Number(ch);
      else { board[`${files[f]}${9 - i}`] = ch; f += 1; }
    }
  });
  return { board, turn };
}

export function toFen(board, turn) {
  const rows = [];
  for (let r = 9; r >= 0; r--) {
    let row = '', empty = 0;
    for (let f = 0; f < 9; f++) {
      const p = board[`${files[f]}${r}`];
      if (p) { if (empty) row += empty; empty = 0; row += p; } else empty += 1;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return `${rows.join('/')} ${turn}`;
}

function playUci(fen, uci) {
  const { board, turn } = parseFen(fen);
  const from = uci.slice(0, 2), to = uci.slice(2, 4);
  board[to] = board[from];
  delete board[from];
  return toFen(board, turn === 'w' ? 'b' : 'w');
}

/// The result of a move for the side that plays it, from the API's values after the move.
function moverResult(m) {
  if (m.category === 'draw') return { cls: 'draw', text: 'Draw' };
  if (m.rule) return m.category === 'loss' ? { cls: 'win', text: 'Win by rule' } : { cls: 'loss', text: 'Loss by rule' };
  const plies = Math.abs(m.dtm) + 1;
  return m.category === 'loss' ? { cls: 'win', text: `Win in ${plies}` } : { cls: 'loss', text: `Loss in ${plies}` };
}

function positionResult(a) {
  const side = a.turn === 'red' ? 'Red' : 'Black';
  if (!a.moves.length) return { cls: a.category === 'draw' ? 'draw' : 'loss', text: `Game over: ${a.line_end_text}` };
  if (a.category === 'draw') return { cls: 'draw', text: `Draw (${side} to move)` };
  if (a.rule) return a.category === 'win' ? { cls: 'win', text: `${side} to move wins by the perpetual-check rule` } : { cls: 'loss', text: `${side} to move loses by the perpetual-check rule` };
  const n = Math.abs(a.dtm);
  return a.category === 'win' ? { cls: 'win', text: `${side} to move wins in ${n} plies` } : { cls: 'loss', text: `${side} to move loses in ${n} plies` };
}

export function start(section, params) {
  root = section;
  section.append(el('div', { class: 'layout' },
    el('div', {},
      el('div', { class: 'panel' },
        el('div', { id: 'xq-board' }),
        el('div', { class: 'row' },
          el('button', { id: 'xq-back', onclick: () => go(at - 1), title: 'Back' }, '◀ Back'),
          el('button', { id: 'xq-forward', onclick: () => go(at + 1), title: 'Forward' }, 'Forward ▶'),
          el('label', {}, el('input', { type: 'checkbox', id: 'xq-letters', onchange: draw }), ' letters'),
          el('label', {}, el('input', { type: 'checkbox', id: 'xq-flip', onchange: draw }), ' flip'),
          el('select', { id: 'xq-rules', onchange: () => load(history[at]) },
            el('option', { value: 'standard' }, 'standard rules'), el('option', { value: 'hdu' }, 'hdu rules'), el('option', { value: 'perpetual-check' }, 'perpetual-check rules'))),
        el('div', { class: 'row' },
          el('input', { type: 'text', class: 'fen', id: 'xq-fen', spellcheck: 'false', onkeydown: (e) => { if (e.key === 'Enter') loadFenBox(); } }),
          el('button', { id: 'xq-load', onclick: loadFenBox }, 'Load')),
        el('div', { id: 'xq-error' })),
      el('div', { class: 'panel', id: 'xq-editor-panel' }, el('h2', {}, 'Position editor'),
        el('div', { class: 'row' },
          el('button', { id: 'xq-edit', onclick: toggleEdit }, 'Edit position'),
          el('select', { id: 'xq-examples', onchange: (e) => { if (e.target.value) { stopPlay(); newGame(e.target.value); } } },
            el('option', { value: '' }, 'Examples…'), ...EXAMPLES.map(([name, fen]) => el('option', { value: fen }, name)))),
        el('div', { id: 'xq-editor', hidden: true }))),
    el('div', {},
      el('div', { class: 'panel' },
        el('div', { id: 'xq-verdict', class: 'verdict' }, '…'),
        el('div', { id: 'xq-info', class: 'muted' }),
        el('div', { class: 'row' },
          el('button', { id: 'xq-play-red', onclick: () => startPlay('w') }, 'Play Red vs perfect play'),
          el('button', { id: 'xq-play-black', onclick: () => startPlay('b') }, 'Play Black vs perfect play'),
          el('button', { id: 'xq-stop', onclick: stopPlay, hidden: true }, 'Stop playing')),
        el('div', { id: 'xq-play-status' })),
      el('div', { class: 'panel' }, el('h2', {}, 'Moves'), el('table', { class: 'moves', id: 'xq-moves' })),
      el('div', { class: 'panel' }, el('h2', {}, 'Main line'), el('div', { id: 'xq-line', class: 'line' })),
      el('div', { class: 'panel' }, el('h2', {}, 'Material statistics'), el('div', { id: 'xq-stats', class: 'kv' })))));
  onUrl(params);
}

/// The shareable URL of the position on the board (`null` before the first one).
export function currentUrl() {
  if (at < 0) return null;
  return `/xiangqi?fen=${encodeURIComponent(history[at])}${rules() === 'standard' ? '' : `&rules=${rules()}`}`;
}

export function onUrl(params) {
  if (params.get('rules')) root.querySelector('#xq-rules').value = params.get('rules');
  newGame(params.get('fen') || START_FEN, true);
}

function newGame(fen, fromUrl) {
  history = [fen];
  at = 0;
  load(fen, fromUrl);
}

function loadFenBox() {
  stopPlay();
  newGame(root.querySelector('#xq-fen').value.trim());
}

function go(i) {
  if (i < 0 || i >= history.length || editing) return;
  at = i;
  load(history[at]);
}

function rules() { return root.querySelector('#xq-rules').value; }

async function load(fen, fromUrl) {
  const id = ++request;
  selected = null;
  root.querySelector('#xq-fen').value = fen;
  const err = root.querySelector('#xq-error');
  err.replaceChildren();
  const url = currentUrl();
  if (!fromUrl && location.pathname + location.search !== url) window.history.replaceState({}, '', url);
  root.querySelector('#xq-verdict').textContent = 'Solving…';
  root.querySelector('#xq-verdict').className = 'verdict muted';
  let a;
  try {
    a = await api(`/api/xiangqi?fen=${encodeURIComponent(fen)}&rules=${rules()}`);
  } catch (e) {
    if (id !== request) return;
    answer = null;
    err.append(el('div', { class: 'error', id: 'xq-error-text' }, e.message));
    root.querySelector('#xq-verdict').textContent = 'No answer';
    draw();
    return;
  }
  if (id !== request) return;
  answer = a;
  render();
  loadStats(a.material);
  if (playing && answer.moves.length && (answer.turn === 'red' ? 'w' : 'b') !== playing) {
    setTimeout(() => { if (playing && answer === a) playMove(a.moves[0].uci); }, 350);
  }
}

let statsFor = '';
async function loadStats(material) {
  const key = `${material}/${rules()}`;
  if (statsFor === key) return;
  statsFor = key;
  const box = root.querySelector('#xq-stats');
  box.replaceChildren(el('span', { class: 'muted' }, `Counting ${material}…`));
  try {
    const s = await api(`/api/xiangqi/stats?material=${material}&rules=${rules()}`);
    if (statsFor !== key) return;
    const pct = (n) => `${(100 * n / s.positions).toFixed(1)} %`;
    box.replaceChildren(
      el('div', {}, el('b', {}, 'Material'), `${s.material} (${s.rules} rules)`),
      el('div', {}, el('b', {}, 'Positions'), s.positions.toLocaleString()),
      el('div', {}, el('b', {}, 'Wins'), el('span', { class: 'win' }, `${s.wins.toLocaleString()} (${pct(s.wins)})`), ' for the side to move'),
      el('div', {}, el('b', {}, 'Draws'), el('span', { class: 'draw' }, `${s.draws.toLocaleString()} (${pct(s.draws)})`)),
      el('div', {}, el('b', {}, 'Losses'), el('span', { class: 'loss' }, `${s.losses.toLocaleString()} (${pct(s.losses)})`)),
      ...(s.wins_by_rule === undefined ? [] : [
        el('div', {}, el('b', {}, 'Standard draws'), `${s.standard_draws.toLocaleString()}: ${s.wins_by_rule.toLocaleString()} won and ${s.losses_by_rule.toLocaleString()} lost by the rule (wins and losses above are by mate)`)]),
      el('div', {}, el('b', {}, 'Longest wins'), `Red to move ${s.longest_red_win_plies} plies, Black to move ${s.longest_black_win_plies} plies`));
  } catch (e) {
    if (statsFor === key) box.replaceChildren(el('span', { class: 'muted' }, e.message));
  }
}

function render() {
  const a = answer;
  const v = positionResult(a);
  const verdict = root.querySelector('#xq-verdict');
  verdict.className = `verdict ${v.cls}`;
  verdict.textContent = v.text;
  root.querySelector('#xq-info').textContent = `${a.material}, ${a.rules} rules${a.in_check ? ', in check' : ''}${a.moves.length ? '' : `. ${a.line_end_text}`}`;
  const table = root.querySelector('#xq-moves');
  table.replaceChildren(...a.moves.map((m) => {
    const r = moverResult(m);
    return el('tr', { class: r.cls, 'data-uci': m.uci, onclick: () => { if (!editing && canMove()) playMove(m.uci); } },
      el('td', { class: 'wxf' }, m.wxf), el('td', { class: 'uci' }, m.uci + (m.capture ? ` ×${m.capture}` : '')),
      el('td', { class: 'res' }, r.text));
  }));
  if (!a.moves.length) table.append(el('tr', {}, el('td', { class: 'muted' }, `No legal move: ${a.line_end_text}`)));
  // The main line: each move opens the position before it.
  const line = root.querySelector('#xq-line');
  const spans = [];
  let fen = history[at];
  a.main_line.forEach((uci, i) => {
    const before = fen;
    spans.push(el('span', { 'data-ply': i + 1, title: uci, onclick: () => { if (!playing) branch(before, uci); } }, `${i + 1}. ${a.main_line_wxf[i]}`), ' ');
    fen = playUci(fen, uci);
  });
  line.replaceChildren(...spans, el('div', { class: 'muted', id: 'xq-line-end' }, `${a.main_line.length} plies. ${a.line_end_text}`));
  root.querySelector('#xq-back').disabled = at <= 0;
  root.querySelector('#xq-forward').disabled = at >= history.length - 1;
  updatePlayStatus();
  draw();
}

/// Plays the main line up to (and including) `uci` from `before`.
function branch(before, uci) {
  // Walk the line from the current position: push every position up to the clicked move.
  let fen = history[at];
  const line = answer.main_line;
  history = history.slice(0, at + 1);
  for (const m of line) {
    const prev = fen;
    fen = playUci(fen, m);
    history.push(fen);
    if (prev === before && m === uci) break;
  }
  at = history.length - 1;
  load(history[at]);
}

function canMove() {
  if (!answer) return false;
  if (!playing) return true;
  return (answer.turn === 'red' ? 'w' : 'b') === playing;
}

function playMove(uci) {
  history = history.slice(0, at + 1);
  history.push(playUci(history[at], uci));
  at += 1;
  load(history[at]);
}

function startPlay(side) {
  if (editing || !answer) return;
  playing = side;
  history = history.slice(0, at + 1);
  root.querySelector('#xq-stop').hidden = false;
  updatePlayStatus();
  if (answer.moves.length && (answer.turn === 'red' ? 'w' : 'b') !== playing) playMove(answer.moves[0].uci);
}

function stopPlay() {
  playing = null;
  root.querySelector('#xq-stop').hidden = true;
  updatePlayStatus();
}

function updatePlayStatus() {
  const box = root.querySelector('#xq-play-status');
  if (!playing) { box.replaceChildren(); return; }
  const you = playing === 'w' ? 'Red' : 'Black';
  let text;
  if (answer && !answer.moves.length) text = `Game over: ${answer.line_end_text}`;
  else if (canMove()) text = `You play ${you}: your move.`;
  else text = `You play ${you}: perfect play is thinking…`;
  box.replaceChildren(el('div', { class: 'muted', id: 'xq-play-text' }, text));
}

// ---- The board ----

function point(sq) {
  const f = files.indexOf(sq[0]), r = Number(sq[1]);
  const flip = root.querySelector('#xq-flip').checked;
  const x = flip ? 8 - f : f, y = flip ? r : 9 - r;
  return [PAD + x * CELL, PAD + y * CELL];
}

function draw() {
  const size = [PAD * 2 + 8 * CELL, PAD * 2 + 9 * CELL];
  const svg = svgEl('svg', { viewBox: `0 0 ${size[0]} ${size[1]}`, width: size[0], height: size[1], id: 'xq-svg' });
  svg.append(svgEl('rect', { x: 4, y: 4, width: size[0] - 8, height: size[1] - 8, rx: 10, fill: '#e8c98c', stroke: '#b08d4f', 'stroke-width': 2 }));
  const line = (a, b, attrs = {}) => {
    const [x1, y1] = point(a), [x2, y2] = point(b);
    svg.append(svgEl('line', { x1, y1, x2, y2, stroke: '#5a3d1a', 'stroke-width': 1.4, ...attrs }));
  };
  for (let r = 0; r <= 9; r++) line(`a${r}`, `i${r}`);
  for (let f = 0; f < 9; f++) {
    if (f === 0 || f === 8) line(`${files[f]}0`, `${files[f]}9`);
    else { line(`${files[f]}0`, `${files[f]}4`); line(`${files[f]}5`, `${files[f]}9`); }
  }
  line('d0', 'f2'); line('f0', 'd2'); line('d9', 'f7'); line('f9', 'd7');
  const [rx, ry] = point('c5'), [rx2, ry2] = point('g4');
  const flip = root.querySelector('#xq-flip').checked;
  svg.append(svgEl('text', { x: (rx + point('a4')[0]) / 2 + CELL, y: (ry + ry2) / 2 + 9, 'font-size': 26, fill: '#7a5527', 'text-anchor': 'middle', 'font-family': 'serif' }, flip ? '漢 界' : '楚 河'));
  svg.append(svgEl('text', { x: (rx2 + point('i4')[0]) / 2 - CELL, y: (ry + ry2) / 2 + 9, 'font-size': 26, fill: '#7a5527', 'text-anchor': 'middle', 'font-family': 'serif' }, flip ? '楚 河' : '漢 界'));
  void rx;
  // Coordinates (ICCS) along the edges.
  for (let f = 0; f < 9; f++) {
    const [x] = point(`${files[f]}0`), [, y0] = point(`${files[f]}0`), [, y9] = point(`${files[f]}9`);
    svg.append(svgEl('text', { x, y: Math.max(y0, y9) + 30, 'font-size': 12, fill: '#7a5527', 'text-anchor': 'middle' }, files[f]));
  }
  for (let r = 0; r <= 9; r++) {
    const [x, y] = point(`a${r}`);
    svg.append(svgEl('text', { x: x < size[0] / 2 ? x - 26 : x + 26, y: y + 4, 'font-size': 12, fill: '#7a5527', 'text-anchor': 'middle' }, String(r)));
  }
  const fen = editing ? toFen(editBoard, editTurn) : history[at];
  const { board } = parseFen(fen);
  const targets = new Map();
  if (!editing && answer && selected) for (const m of answer.moves) if (m.uci.startsWith(selected)) targets.set(m.uci.slice(2, 4), m);
  // Last move.
  if (!editing && at > 0) {
    const prev = parseFen(history[at - 1]).board, now = board;
    for (const sq of Object.keys({ ...prev, ...now })) if (prev[sq] !== now[sq]) {
      const [x, y] = point(sq);
      svg.append(svgEl('rect', { x: x - 25, y: y - 25, width: 50, height: 50, fill: 'none', stroke: '#2d6cdf', 'stroke-width': 2, 'stroke-dasharray': '5 4', rx: 6 }));
    }
  }
  // Click targets on every point.
  for (let f = 0; f < 9; f++) for (let r = 0; r <= 9; r++) {
    const sq = `${files[f]}${r}`;
    const [x, y] = point(sq);
    svg.append(svgEl('rect', { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, fill: 'transparent', class: 'point', 'data-sq': sq, onclick: () => clickPoint(sq) }));
  }
  const letters = root.querySelector('#xq-letters').checked;
  for (const [sq, p] of Object.entries(board)) {
    const [x, y] = point(sq);
    const red = p === p.toUpperCase();
    const g = svgEl('g', { class: 'piece', 'data-sq': sq, style: 'cursor:pointer', onclick: () => clickPoint(sq) });
    g.append(svgEl('circle', { cx: x, cy: y, r: 23, fill: '#fbf3df', stroke: sq === selected ? '#2d6cdf' : red ? '#b3261e' : '#222', 'stroke-width': sq === selected ? 4 : 2 }));
    g.append(svgEl('circle', { cx: x, cy: y, r: 19, fill: 'none', stroke: red ? '#b3261e' : '#222', 'stroke-width': 1 }));
    g.append(svgEl('text', { x, y: y + (letters ? 8 : 9), 'font-size': letters ? 22 : 26, 'font-weight': 700, fill: red ? '#b3261e' : '#222', 'text-anchor': 'middle', 'font-family': letters ? 'system-ui, sans-serif' : '"Noto Serif CJK TC", "Noto Sans CJK TC", serif', 'pointer-events': 'none' },
      letters ? (red ? LETTERS[p] : LETTERS[p.toUpperCase()].toLowerCase()) : CHARS[p]));
    svg.append(g);
  }
  for (const [sq, m] of targets) {
    const [x, y] = point(sq);
    const r = moverResult(m);
    const colour = r.cls === 'win' ? '#1f8a3b' : r.cls === 'loss' ? '#c0392b' : '#777';
    svg.append(svgEl('circle', { cx: x, cy: y, r: board[sq] ? 26 : 9, fill: board[sq] ? 'none' : colour, stroke: colour, 'stroke-width': 3, opacity: .85, class: 'target', 'data-sq': sq, style: 'cursor:pointer', onclick: () => clickPoint(sq) },
      svgEl('title', {}, `${m.wxf}: ${r.text}`)));
  }
  root.querySelector('#xq-board').replaceChildren(svg);
}

function clickPoint(sq) {
  if (editing) { editAt(sq); return; }
  if (!answer) return;
  if (selected) {
    const m = answer.moves.find((mv) => mv.uci === `${selected}${sq}`);
    if (m && canMove()) { selected = null; playMove(m.uci); return; }
  }
  const { board } = parseFen(history[at]);
  const p = board[sq];
  const mine = p && ((p === p.toUpperCase()) === (answer.turn === 'red'));
  selected = mine && selected !== sq ? sq : null;
  draw();
}

// ---- The editor ----

function toggleEdit() {
  const box = root.querySelector('#xq-editor');
  if (editing) {
    // Done: load the edited position; an illegal one shows the API's message inline.
    editing = false;
    box.hidden = true;
    root.querySelector('#xq-edit').textContent = 'Edit position';
    newGame(toFen(editBoard, editTurn));
    return;
  }
  stopPlay();
  editing = true;
  const { board, turn } = parseFen(history[at]);
  editBoard = board; editTurn = turn;
  root.querySelector('#xq-edit').textContent = 'Done: analyse';
  box.hidden = false;
  const pieceButton = (p) => el('button', { 'data-piece': p, class: p === editPiece ? 'on' : '', style: `color:${p === p.toUpperCase() ? '#b3261e' : '#222'}`, onclick: () => { editPiece = p; syncEditor(); } }, CHARS[p]);
  box.replaceChildren(
    el('div', { class: 'editor-pieces' }, ...'KABNRCP'.split('').map(pieceButton)),
    el('div', { class: 'editor-pieces', style: 'margin-top:.25rem' }, ...'kabnrcp'.split('').map(pieceButton),
      el('button', { 'data-piece': '', onclick: () => { editPiece = ''; syncEditor(); } }, '✕ remove')),
    el('div', { class: 'row' }, 'Side to move',
      el('select', { id: 'xq-edit-turn', onchange: (e) => { editTurn = e.target.value; checkEdit(); } }, el('option', { value: 'w' }, 'Red'), el('option', { value: 'b' }, 'Black')),
      el('button', { onclick: () => { editBoard = {}; checkEdit(); } }, 'Clear board')),
    el('div', { class: 'muted', style: 'font-size:.82rem' }, 'Click a point to put the chosen piece there (click it again to remove it).'),
    el('div', { id: 'xq-edit-error' }));
  root.querySelector('#xq-edit-turn').value = editTurn;
  syncEditor();
  checkEdit();
}

function syncEditor() {
  root.querySelectorAll('#xq-editor [data-piece]').forEach((b) => b.classList.toggle('on', b.dataset.piece === editPiece));
}

function editAt(sq) {
  if (editBoard[sq] === editPiece || !editPiece) delete editBoard[sq];
  else editBoard[sq] = editPiece;
  checkEdit();
}

let checkId = 0;
async function checkEdit() {
  draw();
  const id = ++checkId;
  const fen = toFen(editBoard, editTurn);
  root.querySelector('#xq-fen').value = fen;
  const box = root.querySelector('#xq-edit-error');
  try {
    const a = await api(`/api/xiangqi?fen=${encodeURIComponent(fen)}&rules=${rules()}`);
    if (id !== checkId) return;
    const v = positionResult(a);
    box.replaceChildren(el('div', { class: v.cls, id: 'xq-edit-ok' }, `Legal: ${v.text}.`));
  } catch (e) {
    if (id !== checkId) return;
    box.replaceChildren(el('div', { class: 'error', id: 'xq-edit-error-text' }, e.message));
  }
}
