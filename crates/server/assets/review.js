// Review: a game record (PGN pasted, or a PGN or XQF file dropped) reviewed against the tables
// by `POST /api/xiangqi/review`: the moves with their marks (blunder, mistake) and the best
// move, a small graph of the result along the game for Red, a summary per side, and any
// position of the game with every move's value, as the explorer shows it (`/api/xiangqi`).
//
// The address of a reviewed game holds the game itself (`/review?fen=START&moves=h2e2,h9g7,...
// &rules=R&ply=K`, K the move whose position is shown, n+1 the final one): opened anywhere, it
// reviews the same moves again and shows the same position.
import { el, option, api, copyText, flash, examples, svgEl } from './ui.js';
import { t, getLang, onLang } from './i18n.js';
import { drawBoard } from './xiangqi-board.js';
import { parseFen, turnOf, chineseMove } from './xiangqi-notation.js';
import { RULES, hooks, resultColour, moverResult } from './xiangqi.js';
import './review-i18n.js';

let root;
let record = null;    // what is reviewed: { body: text or ArrayBuffer, name }
let review = null;    // the API's answer
let failure = null;   // the API's error
let at = 0;           // the position shown: 0..n-1 before the move of ply at+1, n the final position
let position = null;  // the API's answer for that position, or { error }
let request = 0, positionRequest = 0;
const positions = new Map();

const $ = (sel) => root.querySelector(sel);
const sideName = (w) => t(w === 'w' ? 'side.red' : 'side.black');
const fenAt = (k) => (k < review.moves.length ? review.moves[k].fen : review.final.fen);
const turnName = (turn) => (turn === 'red' ? 'w' : 'b');

/// A move's name in the interface's notation: WXF, or Chinese in Chinese.
function moveName(m) {
  if (!m.wxf) return m.uci;
  return getLang() === 'zh' ? chineseMove(m.wxf, m.turn === 'red') : m.wxf;
}

/// `13.` or `13...`: the move's number and side.
const label = (m) => t('rv.moveLabel', m.move, turnName(m.turn));

/// A value object of the answer (`category`, `dtm`, `rule`) for people, with its colour.
function valueText(v) {
  if (!v) return { cls: 'none', text: '—', colour: 'var(--muted)' };
  const r = moverResult(v);
  return { ...r, colour: resultColour(r.cls, r.plies) };
}

export function start(section, params) {
  root = section;
  const drop = (e) => {
    e.preventDefault();
    const file = e.dataTransfer?.files?.[0];
    if (file) readFile(file);
  };
  // Two columns on a wide screen: the position (board, every move's value), then the record,
  // the summary with the graph, and the moves with their marks; one column on a narrow one.
  section.append(el('div', { class: 'layout rv-layout' },
    el('div', {},
      el('div', { class: 'panel board-panel', id: 'rv-board-panel' },
        el('div', { class: 'panel-head' }, el('h2', { id: 'rv-position-title' }, t('rv.position')),
          el('div', { class: 'row tight' },
            el('a', { id: 'rv-explorer', href: '/xiangqi', i18n: 'rv.explorer' }),
            el('button', { id: 'rv-copy-link', onclick: (e) => copyLink(e.currentTarget), i18n: 'rv.copyLink' }))),
        el('div', { id: 'rv-board', class: 'board' }),
        el('div', { class: 'row nav' },
          el('button', { id: 'rv-back', onclick: () => goTo(at - 1), i18nTitle: 'key.back' }, '◀ ', el('span', { i18n: 'xq.back' })),
          el('button', { id: 'rv-forward', onclick: () => goTo(at + 1), i18nTitle: 'key.forward' }, el('span', { i18n: 'xq.forward' }), ' ▶'))),
      el('div', { class: 'panel', id: 'rv-position-panel' },
        el('div', { id: 'rv-verdict', class: 'verdict muted' }),
        el('div', { id: 'rv-position-error' }),
        el('table', { class: 'moves', id: 'rv-position-moves' }))),
    el('div', {},
      el('div', { class: 'panel', id: 'rv-input-panel', ondragover: (e) => e.preventDefault(), ondrop: drop },
        el('h2', { i18n: 'rv.recordTitle' }),
        el('textarea', { id: 'rv-input', rows: 4, spellcheck: 'false', 'aria-label': 'PGN', 'data-i18n-placeholder': 'rv.help', placeholder: t('rv.help'),
          oninput: () => { record = null; $('#rv-file-name').textContent = ''; } }),
        el('div', { class: 'muted small', id: 'rv-file-name' }),
        el('div', { class: 'row' },
          el('button', { id: 'rv-go', class: 'primary', onclick: () => submit(true), i18n: 'rv.go' }),
          el('button', { id: 'rv-open', onclick: () => $('#rv-file').click(), i18n: 'rv.open' }),
          el('input', { type: 'file', id: 'rv-file', accept: '.pgn,.xqf,.txt', hidden: true, onchange: (e) => { if (e.target.files[0]) readFile(e.target.files[0]); } }),
          el('button', { id: 'rv-example', onclick: loadExample, i18n: 'rv.example' })),
        el('div', { class: 'row' },
          el('select', { id: 'rv-rules', 'aria-label': 'rules' }, ...RULES.map((r) => option(r.value, r.key))),
          el('label', { class: 'check' }, el('span', { i18n: 'rv.game' }), ' ',
            el('input', { type: 'number', id: 'rv-game', class: 'num', min: 1, value: 1 }), ' ', el('span', { id: 'rv-games' })),
          el('label', { class: 'check', i18nTitle: 'rv.mistakeTitle' }, el('span', { i18n: 'rv.mistakePlies' }), ' ',
            el('input', { type: 'number', id: 'rv-mistake', class: 'num', min: 1, value: 10 }))),
        el('div', { id: 'rv-error' })),
      el('div', { class: 'panel', id: 'rv-summary-panel' }, el('h2', { i18n: 'rv.summary' }),
        el('div', { id: 'rv-title', class: 'muted' }), el('div', { id: 'rv-summary' }),
        el('div', { id: 'rv-graph', title: t('rv.graph'), 'data-i18n-title': 'rv.graph' }), el('div', { class: 'muted small', i18n: 'rv.graphHelp' }),
        el('div', { id: 'rv-generate' })),
      el('div', { class: 'panel', id: 'rv-moves-panel' }, el('h2', { i18n: 'rv.moves' }),
        el('div', { class: 'rv-scroll' }, el('table', { class: 'moves', id: 'rv-moves' }))))));
  onLang(() => render());
  onUrl(params);
}

/// The address of the game reviewed and the ply shown (`/review` before any review).
export function currentUrl() {
  if (!review) return '/review';
  const moves = review.moves.map((m) => m.uci).join(',');
  const rules = review.rules === 'standard' ? '' : `&rules=${encodeURIComponent(review.rules)}`;
  const n = review.mistake_plies === 10 ? '' : `&mistake_plies=${review.mistake_plies}`;
  return `/review?fen=${encodeURIComponent(review.start_fen).replace(/%2F/g, '/')}&moves=${moves}${rules}${n}&ply=${at + 1}`;
}

/// The browser opened a review address: the game of its `fen` and `moves`, reviewed again
/// when it is not the one shown, at its `ply`.
export function onUrl(params) {
  const fen = params.get('fen'), moves = params.get('moves');
  const wanted = params.has('ply') ? Math.max(0, (Number(params.get('ply')) || 1) - 1) : null;
  if (fen === null || moves === null) {
    render();
    return;
  }
  const rules = params.get('rules') ?? 'standard';
  if (RULES.some((r) => r.value === rules)) $('#rv-rules').value = rules;
  $('#rv-mistake').value = params.get('mistake_plies') ?? 10;
  const same = review && review.start_fen === fen && review.moves.map((m) => m.uci).join(',') === moves && review.rules === rules;
  if (same) {
    showPly(wanted ?? 0);
    return;
  }
  $('#rv-input').value = pgnOf(fen, moves ? moves.split(',') : []);
  $('#rv-game').value = 1;
  record = null;
  submit(false, wanted);
}

/// Shortcuts: ← → step through the game.
export function onKey(e) {
  if (!review) return false;
  if (e.key === 'ArrowLeft') { goTo(at - 1); return true; }
  if (e.key === 'ArrowRight') { goTo(at + 1); return true; }
  return false;
}

/// A PGN of the start position and the moves (ICCS), numbered by move.
function pgnOf(fen, moves) {
  const black = turnOf(fen) === 'b';
  const parts = [];
  moves.forEach((uci, i) => {
    const k = i + (black ? 1 : 0);
    if (k % 2 === 0) parts.push(`${k / 2 + 1}.`);
    else if (i === 0) parts.push(`${(k + 1) / 2}...`);
    parts.push(uci);
  });
  return `[FEN "${fen}"]\n\n${parts.join(' ')} *\n`;
}

async function loadExample() {
  const ex = await examples();
  $('#rv-input').value = ex.xiangqi_review;
  record = null;
  $('#rv-file-name').textContent = '';
  submit(true);
}

/// A file dropped or chosen: its bytes are sent as they are (the server tells PGN in any
/// encoding from XQF).
async function readFile(file) {
  const body = await file.arrayBuffer();
  record = { body, name: file.name, size: body.byteLength };
  $('#rv-file-name').textContent = t('rv.file', file.name, body.byteLength);
  $('#rv-input').value = '';
  submit(true);
}

/// Reviews the record (the file, else the text), showing position `wanted` (null: the first
/// the tables answer); `push`: the result as a new history entry.
async function submit(push, wanted = null) {
  const id = ++request;
  const body = record ? record.body : $('#rv-input').value;
  failure = null;
  if (!record && !body.trim()) {
    failure = { message: t('rv.empty') };
    render();
    return;
  }
  const rules = $('#rv-rules').value;
  const game = Math.max(1, Number($('#rv-game').value) || 1);
  const n = Math.max(1, Number($('#rv-mistake').value) || 10);
  $('#rv-error').replaceChildren(el('div', { class: 'muted', id: 'rv-busy' }, t('rv.reviewing')));
  let answer;
  try {
    answer = await api(`/api/xiangqi/review?rules=${encodeURIComponent(rules)}&game=${game}&mistake_plies=${n}`, body);
  } catch (e) {
    if (id !== request) return;
    failure = e;
    render();
    return;
  }
  if (id !== request) return;
  review = answer;
  // The first move the tables answer, when nothing else is asked for.
  const first = Math.max(0, review.moves.findIndex((m) => m.result));
  at = Math.min(Math.max(0, wanted ?? first), review.moves.length);
  if (!root.hidden) {
    if (push) history.pushState({ tab: 'review' }, '', currentUrl());
    else history.replaceState({ ...history.state, tab: 'review' }, '', currentUrl());
  }
  render();
  loadPosition();
}

function goTo(k) {
  if (!review || k < 0 || k > review.moves.length || k === at) return;
  showPly(k);
  if (!root.hidden) history.replaceState({ ...history.state, tab: 'review' }, '', currentUrl());
}

function showPly(k) {
  at = Math.min(Math.max(0, k), review.moves.length);
  render();
  loadPosition();
}

/// The explorer's answer for the position shown: every move with its value.
async function loadPosition() {
  const id = ++positionRequest;
  const fen = fenAt(at);
  const key = `${review.rules} ${fen}`;
  position = positions.get(key) ?? null;
  if (!position) {
    renderPosition();
    try {
      position = await api(`/api/xiangqi?fen=${encodeURIComponent(fen)}&rules=${encodeURIComponent(review.rules)}`);
      positions.set(key, position);
      if (positions.size > 400) positions.delete(positions.keys().next().value);
    } catch (e) {
      position = { error: e };
    }
    if (id !== positionRequest) return;
  }
  renderPosition();
}

async function copyLink(button) {
  flash(button, (await copyText(location.origin + currentUrl())) ? 'xq.copied' : 'xq.copyFailed');
}

// ---- Drawing ----

function render() {
  renderError();
  renderSummary();
  renderGraph();
  renderMoves();
  renderPosition();
}

function renderError() {
  $('#rv-error').replaceChildren(...(failure ? [el('div', { class: 'error', id: 'rv-error-text' }, failure.message)] : []));
}

function renderSummary() {
  const box = $('#rv-summary'), title = $('#rv-title');
  $('#rv-games').textContent = review ? t('rv.gameOf', review.games) : '';
  if (!review) { box.replaceChildren(); title.textContent = ''; $('#rv-generate').replaceChildren(); return; }
  const tags = review.tags ?? {};
  title.textContent = [tags.Event, [tags.Red, tags.Black].filter(Boolean).join(' – '), tags.Date].filter(Boolean).join(' · ');
  const s = review.summary;
  const lines = [];
  if (s.perfect_play) {
    const p = s.perfect_play;
    const from = p.ply > review.moves.length ? t('rv.fromEnd') : t('rv.fromMove', p.move, turnName(p.turn), sideName(turnName(p.turn)));
    const text = p.winner ? t('rv.perfectWin', from, sideName(turnName(p.winner))) : t('rv.perfectDraw', from);
    lines.push(el('div', { id: 'rv-perfect', class: p.winner ? '' : 'draw' }, text));
  } else {
    lines.push(el('div', { id: 'rv-perfect', class: 'muted' }, t('rv.noTables')));
  }
  for (const [side, w] of [['red', 'w'], ['black', 'b']]) {
    const c = s[side];
    lines.push(el('div', { id: `rv-${side}` }, t('rv.side', sideName(w), c.in_tables, c.blunders, c.mistakes)));
  }
  if (s.missing.length) lines.push(el('div', { class: 'muted small', id: 'rv-missing' }, t('rv.missing', s.missing.map((m) => m.material).join(', '))));
  box.replaceChildren(...lines);
  // Generation of the material nearest the tables (it brings every smaller one with it).
  const gen = $('#rv-generate');
  const last = [...s.missing].reverse().find((m) => m.can_generate);
  gen.replaceChildren();
  if (last) {
    const inner = el('div', {});
    gen.append(el('div', { class: 'small' }, t('rv.generateFor', last.material)), inner);
    const fen = fenAt(Math.min(last.ply - 1, review.moves.length));
    for (const hook of hooks.noTable) hook(inner, { material: last.material, rules: review.rules, fen, error: last, reload: () => { positions.clear(); submit(false, at); } });
  }
}

/// The value of position `k` for Red: +1 a Red win at once, towards +0.3 for a long one, 0 a
/// draw, negative for Black, null outside the tables.
function redValue(k) {
  const v = k < review.moves.length ? review.moves[k].result : review.final.result;
  if (!v) return null;
  const turn = k < review.moves.length ? review.moves[k].turn : review.final.turn;
  if (v.category === 'draw') return 0;
  const size = v.dtm === null ? 0.5 : 0.3 + 0.7 * Math.exp(-Math.abs(v.dtm) / 40);
  return ((v.category === 'win') === (turn === 'red') ? 1 : -1) * size;
}

function renderGraph() {
  const box = $('#rv-graph');
  if (!review) { box.replaceChildren(); return; }
  const n = review.moves.length + 1, W = 600, H = 120, mid = H / 2, step = W / n;
  const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, id: 'rv-graph-svg', preserveAspectRatio: 'none',
    onclick: (e) => { const r = svg.getBoundingClientRect(); goTo(Math.min(n - 1, Math.floor((e.clientX - r.left) / r.width * n))); } });
  svg.append(svgEl('rect', { x: 0, y: 0, width: W, height: H, fill: '#fbfaf6' }));
  for (let k = 0; k < n; k++) {
    const v = redValue(k);
    if (v === null) continue;
    const h = Math.max(1.5, Math.abs(v) * (mid - 6));
    const fill = v > 0 ? '#b3261e' : v < 0 ? '#222' : '#999';
    svg.append(svgEl('rect', { x: k * step, y: v > 0 ? mid - h : v < 0 ? mid : mid - 0.75, width: Math.max(step, 1), height: v === 0 ? 1.5 : h, fill, 'data-ply': k, class: 'bar' }));
  }
  svg.append(svgEl('line', { x1: 0, y1: mid, x2: W, y2: mid, stroke: '#888', 'stroke-width': 0.5 }));
  review.moves.forEach((m, k) => {
    if (!m.mark) return;
    svg.append(svgEl('circle', { cx: (k + 0.5) * step, cy: 7, r: 4.5, fill: m.mark === 'blunder' ? '#d0251b' : '#f08c00', class: `mark ${m.mark}`, 'data-ply': k + 1 },
      svgEl('title', {}, `${label(m)} ${moveName(m)}: ${t(`rv.${m.mark}`)}`)));
  });
  svg.append(svgEl('rect', { x: at * step, y: 0, width: Math.max(step, 1.5), height: H, fill: 'rgba(45,108,223,.25)', id: 'rv-cursor' }));
  box.replaceChildren(svg);
}

function renderMoves() {
  const table = $('#rv-moves');
  if (!review) { table.replaceChildren(); return; }
  const head = el('tr', {}, ...['rv.colMove', 'rv.colBefore', 'rv.colAfter', 'rv.colMark', 'rv.colBest'].map((k) => el('th', { i18n: k })));
  const rows = review.moves.map((m, k) => {
    const before = valueText(m.result), after = valueText(m.for_mover);
    const best = m.best && m.best !== m.uci && m.result ? `${m.best_wxf ? (getLang() === 'zh' ? chineseMove(m.best_wxf, m.turn === 'red') : m.best_wxf) : m.best}` : '';
    return el('tr', { class: `${k === at ? 'current' : ''} ${m.mark ?? ''}`.trim(), 'data-ply': m.ply, onclick: () => goTo(k) },
      el('td', { class: 'wxf' }, el('span', { class: 'muted' }, `${label(m)} `), moveName(m)),
      el('td', { class: 'res', style: `color:${before.colour}`, title: m.result ? null : t('rv.notInTables') }, before.text),
      el('td', { class: 'res', style: `color:${after.colour}` }, after.text),
      el('td', { class: 'mark' }, m.mark ? el('span', { class: `badge ${m.mark}` }, t(`rv.${m.mark}`)) : ''),
      el('td', { class: 'best' }, best));
  });
  table.replaceChildren(el('thead', {}, head), el('tbody', {}, ...rows));
  const current = table.querySelector('tr.current');
  const scroll = table.parentElement;
  if (current) {
    const top = current.offsetTop;
    if (top < scroll.scrollTop || top > scroll.scrollTop + scroll.clientHeight - current.offsetHeight) scroll.scrollTop = Math.max(0, top - scroll.clientHeight / 2);
  }
}

function renderPosition() {
  const verdict = $('#rv-verdict'), table = $('#rv-position-moves'), errorBox = $('#rv-position-error');
  $('#rv-back').disabled = !review || at <= 0;
  $('#rv-forward').disabled = !review || at >= (review?.moves.length ?? 0);
  if (!review) {
    $('#rv-position-title').textContent = t('rv.position');
    verdict.textContent = '';
    table.replaceChildren();
    errorBox.replaceChildren();
    drawBoard($('#rv-board'), { board: {}, flip: false, letters: false, selected: null, targets: new Map(), last: null, arrow: null, onPoint: () => {} });
    return;
  }
  const fen = fenAt(at);
  const played = review.moves[at] ?? null;
  $('#rv-position-title').textContent = played ? t('rv.before', label(played), moveName(played)) : t('rv.final');
  $('#rv-explorer').href = `/xiangqi?fen=${encodeURIComponent(fen).replace(/%2F/g, '/')}${review.rules === 'standard' ? '' : `&rules=${encodeURIComponent(review.rules)}`}`;
  const arrow = played ? { uci: played.uci, colour: valueText(played.for_mover).colour } : null;
  drawBoard($('#rv-board'), { board: parseFen(fen)?.board ?? {}, flip: false, letters: false, selected: null, targets: new Map(),
    last: at > 0 ? review.moves[at - 1].uci : null, arrow, onPoint: () => {} });
  errorBox.replaceChildren();
  if (!position) {
    verdict.className = 'verdict muted';
    verdict.textContent = t('xq.solving');
    table.replaceChildren();
    return;
  }
  if (position.error) {
    verdict.className = 'verdict muted';
    verdict.textContent = t('rv.notInTables');
    errorBox.append(el('div', { class: 'muted small', id: 'rv-position-error-text' }, position.error.message));
    table.replaceChildren();
    return;
  }
  const a = position, side = sideName(turnOf(fen));
  const v = a.category === 'draw' ? t('verdict.draw', side)
    : a.rule ? t(a.category === 'win' ? 'verdict.winRule' : 'verdict.lossRule', side, t(`rule.${a.rule}`))
      : t(a.category === 'win' ? 'verdict.win' : 'verdict.loss', side, Math.abs(a.dtm));
  verdict.className = `verdict ${a.moves.length ? a.category : 'over'}`;
  verdict.textContent = a.moves.length ? v : `${v}. ${t('rv.noMoves')}`;
  table.replaceChildren(el('thead', {}, el('tr', {}, el('th', { i18n: 'xq.colMove' }), el('th', { i18n: 'xq.colIccs' }), el('th', { i18n: 'xq.colResult' }), el('th'))),
    el('tbody', {}, ...a.moves.map((m, i) => {
      const r = valueText(m.for_mover);
      const tags = [m.uci === played?.uci ? t('rv.played') : null, i === 0 ? t('rv.bestTag') : null].filter(Boolean).join(', ');
      const name = getLang() === 'zh' ? chineseMove(m.wxf, turnOf(fen) === 'w') : m.wxf;
      return el('tr', { class: `${r.cls}${m.uci === played?.uci ? ' played' : ''}`, 'data-uci': m.uci },
        el('td', { class: 'wxf' }, name), el('td', { class: 'uci' }, m.uci),
        el('td', { class: 'res', style: `color:${r.colour}` }, r.text), el('td', { class: 'muted small' }, tags));
    })));
}
