// Twixt: paste or upload a record, replay it move by move with links, refused links, the
// winning path and the threats for the side to move.
import { el, svgEl, option, api, examples } from './ui.js';
import { t, onLang } from './i18n.js';

/// The colours of the pegs and links of each side (the API's `color`).
export const PEG = { Black: '#222', White: '#fff' };
const LINK = { Black: '#222', White: '#8a8a8a' };

let root, report = null, text = '', step = 0, threats = null, threatTimer = null, request = 0;
const $ = (sel) => root.querySelector(sel);

export function start(section) {
  root = section;
  const area = el('textarea', { id: 'twixt-record', rows: 9, 'data-i18n-placeholder': 'twixt.placeholder', 'aria-label': 'record' });
  const file = el('input', { type: 'file', id: 'twixt-file', 'aria-label': 'file', onchange: async (e) => {
    const f = e.target.files[0];
    if (f) { area.value = await f.text(); replay(); }
  } });
  section.append(el('div', { class: 'layout' },
    el('div', {},
      el('div', { class: 'panel board-panel' }, el('div', { id: 'twixt-board', class: 'board' }, el('p', { class: 'muted', i18n: 'twixt.empty' })),
        el('div', { class: 'row nav' }, el('button', { id: 'twixt-prev', onclick: () => go(step - 1), i18nTitle: 'key.back', disabled: true }, '◀'),
          el('input', { type: 'range', id: 'twixt-slider', min: 0, max: 0, value: 0, 'aria-label': 'move', oninput: (e) => go(Number(e.target.value)) }),
          el('button', { id: 'twixt-next', onclick: () => go(step + 1), i18nTitle: 'key.forward', disabled: true }, '▶')),
        el('div', { id: 'twixt-status', class: 'muted' }),
        el('p', { class: 'muted small', i18n: 'twixt.legend' }))),
    el('div', {},
      el('div', { class: 'panel' }, el('h2', { i18n: 'twixt.record' }), area,
        el('div', { class: 'row' }, file),
        el('div', { class: 'row' },
          el('select', { id: 'twixt-format', 'aria-label': 'format' }, option('', 'twixt.formatAuto'), option('judge', 'twixt.formatJudge'), option('sgf', 'twixt.formatSgf'), option('t1', 'twixt.formatT1')),
          el('select', { id: 'twixt-rules', 'aria-label': 'rules' }, option('', 'twixt.rulesAuto'), option('poj', 'twixt.rulesPoj'), option('pp', 'twixt.rulesPp')),
          el('select', { id: 'twixt-swap', 'aria-label': 'swap' }, option('', 'twixt.swapAuto'), option('on', 'twixt.swapOn'), option('off', 'twixt.swapOff'))),
        el('div', { class: 'row' }, el('button', { class: 'primary', id: 'twixt-replay', onclick: replay, i18n: 'twixt.replay' }),
          el('button', { id: 'twixt-t1', onclick: async () => { area.value = (await examples()).twixt; replay(); }, i18n: 'twixt.t1Example' }),
          el('button', { id: 'twixt-judge', onclick: async () => { area.value = (await examples()).twixt_judge; replay(); }, i18n: 'twixt.judgeExample' })),
        el('div', { id: 'twixt-error' })),
      el('div', { class: 'panel' }, el('h2', { i18n: 'twixt.game' }), el('div', { id: 'twixt-info', class: 'kv' })),
      el('div', { class: 'panel' }, el('h2', { i18n: 'twixt.threats' }), el('div', { id: 'twixt-threats', class: 'kv' })),
      el('div', { class: 'panel' }, el('h2', { i18n: 'twixt.moves' }), el('div', { id: 'twixt-moves', class: 'steps' })))));
  area.placeholder = t('twixt.placeholder');
  onLang(() => {
    area.placeholder = t('twixt.placeholder');
    if (report) { renderReport(); go(step, threats); }
  });
  examples().then((ex) => { if (!area.value) { area.value = ex.twixt_judge; replay(); } });
}

/// ← and → step through the moves.
export function onKey(e) {
  if (e.key === 'ArrowLeft') { go(step - 1); return true; }
  if (e.key === 'ArrowRight') { go(step + 1); return true; }
  return false;
}

function query() {
  const q = new URLSearchParams();
  for (const name of ['format', 'rules', 'swap']) {
    const v = $(`#twixt-${name}`).value;
    if (v) q.set(name, v);
  }
  return q;
}

async function replay() {
  const id = ++request;
  text = $('#twixt-record').value;
  const errBox = $('#twixt-error');
  errBox.replaceChildren();
  let answer;
  try {
    answer = await api(`/api/twixt/replay?${query()}`, text);
  } catch (e) {
    if (id !== request) return;
    // An error clears the board, the game, the threats and the moves of the last record.
    report = null;
    threats = null;
    errBox.append(el('div', { class: 'error', id: 'twixt-error-text' }, e.message));
    $('#twixt-board').replaceChildren(el('p', { class: 'muted', i18n: 'twixt.empty' }));
    for (const box of ['#twixt-info', '#twixt-threats', '#twixt-moves', '#twixt-status']) $(box).replaceChildren();
    const slider = $('#twixt-slider');
    slider.max = 0;
    slider.value = 0;
    $('#twixt-prev').disabled = $('#twixt-next').disabled = true;
    return;
  }
  if (id !== request) return;
  report = answer;
  renderReport();
  go(report.moves.length, report.threats);
}

function renderReport() {
  $('#twixt-slider').max = report.moves.length;
  const outcome = report.outcome ? describeOutcome(report.outcome) : t('twixt.notOver');
  $('#twixt-info').replaceChildren(
    kv('twixt.format', FORMATS[report.format] ? t(FORMATS[report.format]) : report.format), kv('twixt.board', `${report.n + 1} × ${report.n + 1}`), kv('twixt.rules', report.rules),
    kv('twixt.swap', t(report.swap ? 'twixt.on' : 'twixt.off')),
    kv('twixt.players', report.players.filter((p) => p).join(' – ') || '—'), kv('twixt.moveCount', String(report.moves.length)), kv('twixt.outcome', outcome));
  $('#twixt-moves').replaceChildren(...report.moves.map((m, i) => el('div', { 'data-step': i + 1, 'data-color': m.color, onclick: () => go(i + 1) },
    el('span', { class: `swatch ${m.color.toLowerCase()}` }), el('span', {}, describeMove(m)))));
}

const colour = (c) => t(`twixt.${c}`);

function describeOutcome(o) {
  return t(o.by === 'resignation' ? 'twixt.wonResign' : 'twixt.wonConnect', colour(o.winner), o.move);
}

function describeMove(m) {
  const where = m.point ? m.point.name : '';
  let s = `${m.number}. ${colour(m.color)} ${m.kind === 'place' ? where : `${t(`twixt.kind.${m.kind}`)}${where ? ` ${where}` : ''}`}`;
  if (m.links.length) s += ` — ${t('twixt.links', m.links.map((p) => p.name).join(', '))}`;
  if (m.refused.length) s += ` — ${t('twixt.refused', m.refused.map((r) => t('twixt.crosses', r.to.name, r.blocked_by.from.name, r.blocked_by.to.name)).join(', '))}`;
  if (m.wins) s += ` — ${t('twixt.wins')}`;
  return s;
}

/// The record formats' names, as the format menu has them.
const FORMATS = { judge: 'twixt.formatJudge', sgf: 'twixt.formatSgf', t1: 'twixt.formatT1' };

/// A line of the game's facts: the name, a space, the value.
function kv(key, v) { return el('div', {}, el('b', { i18n: key }), ' ', v); }

function go(k, known) {
  if (!report) return;
  step = Math.max(0, Math.min(report.moves.length, k));
  $('#twixt-slider').value = step;
  $('#twixt-prev').disabled = step === 0;
  $('#twixt-next').disabled = step === report.moves.length;
  root.querySelectorAll('#twixt-moves div').forEach((d) => d.classList.toggle('current', Number(d.dataset.step) === step));
  $('#twixt-status').textContent = step === 0 ? t('twixt.start') : describeMove(report.moves[step - 1]);
  threats = known ?? null;
  draw();
  if (known) showThreats(known);
  else {
    clearTimeout(threatTimer);
    const asked = report;
    threatTimer = setTimeout(async () => {
      const q = query(); q.set('upto', step);
      try {
        const r = await api(`/api/twixt/replay?${q}`, text);
        if (report === asked && Number($('#twixt-slider').value) === step) { threats = r.threats; showThreats(r.threats); draw(); }
      } catch { /* shown on replay */ }
    }, 120);
  }
}

function showThreats(th) {
  const box = $('#twixt-threats');
  if (step === report.moves.length && report.outcome) { box.replaceChildren(el('div', {}, t('twixt.over', describeOutcome(report.outcome)))); return; }
  box.replaceChildren(
    kv('twixt.toMove', colour(th.to_move)),
    kv('twixt.winsNow', th.winning_now.map((p) => p.name).join(', ') || t('twixt.none')),
    kv('twixt.opponentWould', th.opponent.map((p) => p.name).join(', ') || t('twixt.none')));
}

function draw() {
  if (report.n > 120) {
    $('#twixt-board').replaceChildren(el('p', { class: 'muted' }, t('twixt.tooLarge', report.n + 1)));
    return;
  }
  const n = report.n, cell = Math.max(14, Math.min(56, Math.floor(500 / (n + 2)))), pad = cell;
  const size = pad * 2 + cell * n;
  const X = (x) => pad + x * cell, Y = (y) => pad + (n - y) * cell;
  const svg = svgEl('svg', { viewBox: `0 0 ${size} ${size}`, width: size, height: size, id: 'twixt-svg' });
  svg.append(svgEl('rect', { x: 0, y: 0, width: size, height: size, fill: '#f7f1e3', rx: 8 }));
  // Endzone lines: Black joins x = 0 and x = N (left, right), White y = 0 and y = N.
  svg.append(svgEl('line', { x1: X(0.5), y1: Y(0), x2: X(0.5), y2: Y(n), stroke: '#222', 'stroke-width': 3 }));
  svg.append(svgEl('line', { x1: X(n - 0.5), y1: Y(0), x2: X(n - 0.5), y2: Y(n), stroke: '#222', 'stroke-width': 3 }));
  svg.append(svgEl('line', { x1: X(0), y1: Y(0.5), x2: X(n), y2: Y(0.5), stroke: '#bbb', 'stroke-width': 3 }));
  svg.append(svgEl('line', { x1: X(0), y1: Y(n - 0.5), x2: X(n), y2: Y(n - 0.5), stroke: '#bbb', 'stroke-width': 3 }));
  for (let x = 0; x <= n; x++) for (let y = 0; y <= n; y++) {
    if ((x === 0 || x === n) && (y === 0 || y === n)) continue;
    svg.append(svgEl('circle', { cx: X(x), cy: Y(y), r: 1.6, fill: '#998' }));
  }
  const pegs = new Map(), links = [];
  const key = (p) => `${p.x},${p.y}`;
  for (const m of report.moves.slice(0, step)) {
    if (m.kind === 'swap') pegs.clear();
    if (!m.point) continue;
    pegs.set(key(m.point), { ...m.point, color: m.color });
    for (const q of m.links) links.push([m.point, q, m.color]);
  }
  const path = step === report.moves.length && report.winning_path ? new Set(report.winning_path.map(key)) : new Set();
  for (const [a, b, color] of links) {
    const win = path.has(key(a)) && path.has(key(b));
    svg.append(svgEl('line', { x1: X(a.x), y1: Y(a.y), x2: X(b.x), y2: Y(b.y), stroke: win ? '#e0a800' : LINK[color], 'stroke-width': win ? 5 : 3, 'stroke-linecap': 'round', class: 'link', 'data-color': color }));
  }
  const last = step > 0 ? report.moves[step - 1] : null;
  if (last && last.point) for (const r of last.refused) {
    svg.append(svgEl('line', { x1: X(last.point.x), y1: Y(last.point.y), x2: X(r.to.x), y2: Y(r.to.y), stroke: '#c0392b', 'stroke-width': 2, 'stroke-dasharray': '4 3', class: 'refused' }));
    svg.append(svgEl('line', { x1: X(r.blocked_by.from.x), y1: Y(r.blocked_by.from.y), x2: X(r.blocked_by.to.x), y2: Y(r.blocked_by.to.y), stroke: '#c0392b', 'stroke-width': 5, opacity: 0.35 }));
  }
  if (threats && !(step === report.moves.length && report.outcome)) {
    for (const p of threats.winning_now) svg.append(svgEl('circle', { cx: X(p.x), cy: Y(p.y), r: cell * 0.38, fill: 'none', stroke: '#1f8a3b', 'stroke-width': 2.5, class: 'threat' }));
    for (const p of threats.opponent) svg.append(svgEl('circle', { cx: X(p.x), cy: Y(p.y), r: cell * 0.38, fill: 'none', stroke: '#c0392b', 'stroke-width': 2, 'stroke-dasharray': '3 2' }));
  }
  for (const p of pegs.values()) {
    const isLast = last && last.point && key(last.point) === key(p);
    svg.append(svgEl('circle', { cx: X(p.x), cy: Y(p.y), r: cell * 0.3, fill: PEG[p.color], stroke: path.has(key(p)) ? '#e0a800' : isLast ? '#2d6cdf' : '#222', 'stroke-width': path.has(key(p)) || isLast ? 3 : 1.5, class: 'peg', 'data-color': p.color, 'data-point': p.name },
      svgEl('title', {}, `${p.name} (${colour(p.color)})`)));
  }
  $('#twixt-board').replaceChildren(svg);
}
