// Twixt: paste or upload a record, replay it move by move with links, refused links, the
// winning path and the threats for the side to move.
import { el, svgEl, api, examples } from './app.js';

let root, report = null, text = '', step = 0, threats = null, threatTimer = null;

export function start(section) {
  root = section;
  const area = el('textarea', { id: 'twixt-record', rows: 9, placeholder: 'A record: judge tokens, SGF (.tsgf) or T1 (.T1)' });
  const file = el('input', { type: 'file', id: 'twixt-file', onchange: async (e) => {
    const f = e.target.files[0];
    if (f) { area.value = await f.text(); replay(); }
  } });
  const rules = el('select', { id: 'twixt-rules' }, el('option', { value: '' }, 'rules: as the record says'), el('option', { value: 'poj' }, 'poj: any link blocks'), el('option', { value: 'pp' }, "pp: only the opponent's"));
  const swap = el('select', { id: 'twixt-swap' }, el('option', { value: '' }, 'swap: as the record says'), el('option', { value: 'on' }, 'swap on'), el('option', { value: 'off' }, 'swap off'));
  section.append(el('div', { class: 'layout' },
    el('div', {},
      el('div', { class: 'panel' }, el('div', { id: 'twixt-board' }, el('p', { class: 'muted' }, 'Replay a record to see the board.')),
        el('div', { class: 'row' }, el('button', { id: 'twixt-prev', onclick: () => go(step - 1) }, '◀'),
          el('input', { type: 'range', id: 'twixt-slider', min: 0, max: 0, value: 0, oninput: (e) => go(Number(e.target.value)) }),
          el('button', { id: 'twixt-next', onclick: () => go(step + 1) }, '▶')),
        el('div', { id: 'twixt-status', class: 'muted' }))),
    el('div', {},
      el('div', { class: 'panel' }, el('h2', {}, 'Record'), area,
        el('div', { class: 'row' }, file, rules, swap),
        el('div', { class: 'row' }, el('button', { class: 'primary', id: 'twixt-replay', onclick: replay }, 'Replay'),
          el('button', { onclick: async () => { area.value = (await examples()).twixt; replay(); } }, 'T1 example'),
          el('button', { onclick: async () => { area.value = (await examples()).twixt_judge; replay(); } }, 'Judge example')),
        el('div', { id: 'twixt-error' })),
      el('div', { class: 'panel' }, el('h2', {}, 'Game'), el('div', { id: 'twixt-info', class: 'kv' })),
      el('div', { class: 'panel' }, el('h2', {}, 'Threats'), el('div', { id: 'twixt-threats', class: 'kv' })),
      el('div', { class: 'panel' }, el('h2', {}, 'Moves'), el('div', { id: 'twixt-moves', class: 'steps' })))));
  examples().then((ex) => { if (!area.value) { area.value = ex.twixt_judge; replay(); } });
}

function query() {
  const q = new URLSearchParams();
  const rules = root.querySelector('#twixt-rules').value, swap = root.querySelector('#twixt-swap').value;
  if (rules) q.set('rules', rules);
  if (swap) q.set('swap', swap);
  return q;
}

async function replay() {
  text = root.querySelector('#twixt-record').value;
  const errBox = root.querySelector('#twixt-error');
  errBox.replaceChildren();
  try {
    report = await api(`/api/twixt/replay?${query()}`, text);
  } catch (e) {
    errBox.append(el('div', { class: 'error', id: 'twixt-error-text' }, e.message));
    return;
  }
  const slider = root.querySelector('#twixt-slider');
  slider.max = report.moves.length;
  const info = root.querySelector('#twixt-info');
  const outcome = report.outcome ? describeOutcome(report.outcome) : 'not over';
  info.replaceChildren(
    kv('Format', report.format), kv('Board', `${report.n + 1} × ${report.n + 1}`), kv('Rules', report.rules), kv('Swap', report.swap ? 'on' : 'off'),
    kv('Players', report.players.filter((p) => p).join(' – ') || '—'), kv('Moves', String(report.moves.length)), kv('Outcome', outcome));
  const list = root.querySelector('#twixt-moves');
  list.replaceChildren(...report.moves.map((m, i) => el('div', { 'data-step': i + 1, onclick: () => go(i + 1) }, describeMove(m))));
  go(report.moves.length, report.threats);
}

function describeOutcome(o) {
  if (!o || typeof o !== 'object') return String(o);
  return `${o.winner ?? 'nobody'} wins by ${o.by}${o.move ? ` on move ${o.move}` : ''}`;
}

function describeMove(m) {
  let s = `${m.number}. ${m.colour} ${m.kind === 'place' ? m.point.name : m.kind + (m.point ? ' ' + m.point.name : '')}`;
  if (m.links.length) s += ` — links ${m.links.map((p) => p.name).join(', ')}`;
  if (m.refused.length) s += ` — refused ${m.refused.map((r) => `${r.to.name} (crosses ${r.blocked_by.from.name}–${r.blocked_by.to.name})`).join(', ')}`;
  if (m.wins) s += ' — wins';
  return s;
}

function kv(k, v) { return el('div', {}, el('b', {}, k), v); }

function go(k, known) {
  if (!report) return;
  step = Math.max(0, Math.min(report.moves.length, k));
  root.querySelector('#twixt-slider').value = step;
  root.querySelectorAll('#twixt-moves div').forEach((d) => d.classList.toggle('current', Number(d.dataset.step) === step));
  root.querySelector('#twixt-status').textContent = step === 0 ? 'Start' : describeMove(report.moves[step - 1]);
  threats = known ?? null;
  draw();
  if (known) showThreats(known); else {
    clearTimeout(threatTimer);
    threatTimer = setTimeout(async () => {
      const q = query(); q.set('upto', step);
      try { const r = await api(`/api/twixt/replay?${q}`, text); if (Number(root.querySelector('#twixt-slider').value) === step) { threats = r.threats; showThreats(r.threats, r.outcome); draw(); } } catch { /* shown on replay */ }
    }, 120);
  }
}

function showThreats(t, outcome = report.outcome) {
  const box = root.querySelector('#twixt-threats');
  if (step === report.moves.length && report.outcome) { box.replaceChildren(el('div', {}, `The game is over: ${describeOutcome(report.outcome)}.`)); return; }
  box.replaceChildren(
    kv('To move', t.to_move),
    kv('Wins at once', t.winning_now.map((p) => p.name).join(', ') || 'none'),
    kv('Opponent would', t.opponent.map((p) => p.name).join(', ') || 'none'));
  void outcome;
}

function draw() {
  if (report.n > 120) {
    root.querySelector('#twixt-board').replaceChildren(el('p', { class: 'muted' }, `A board of ${report.n + 1} × ${report.n + 1} points is too large to draw; the moves and threats are listed.`));
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
    pegs.set(key(m.point), { ...m.point, colour: m.colour });
    for (const q of m.links) links.push([m.point, q, m.colour]);
  }
  const path = step === report.moves.length && report.winning_path ? new Set(report.winning_path.map(key)) : new Set();
  for (const [a, b, colour] of links) {
    const win = path.has(key(a)) && path.has(key(b));
    svg.append(svgEl('line', { x1: X(a.x), y1: Y(a.y), x2: X(b.x), y2: Y(b.y), stroke: win ? '#e0a800' : colour === 'Black' ? '#222' : '#8a8a8a', 'stroke-width': win ? 5 : 3, 'stroke-linecap': 'round', class: 'link' }));
  }
  const last = step > 0 ? report.moves[step - 1] : null;
  if (last) for (const r of last.refused) {
    svg.append(svgEl('line', { x1: X(last.point.x), y1: Y(last.point.y), x2: X(r.to.x), y2: Y(r.to.y), stroke: '#c0392b', 'stroke-width': 2, 'stroke-dasharray': '4 3', class: 'refused' }));
    svg.append(svgEl('line', { x1: X(r.blocked_by.from.x), y1: Y(r.blocked_by.from.y), x2: X(r.blocked_by.to.x), y2: Y(r.blocked_by.to.y), stroke: '#c0392b', 'stroke-width': 5, opacity: .35 }));
  }
  if (threats && !(step === report.moves.length && report.outcome)) {
    for (const p of threats.winning_now) svg.append(svgEl('circle', { cx: X(p.x), cy: Y(p.y), r: cell * .38, fill: 'none', stroke: '#1f8a3b', 'stroke-width': 2.5, class: 'threat' }));
    for (const p of threats.opponent) svg.append(svgEl('circle', { cx: X(p.x), cy: Y(p.y), r: cell * .38, fill: 'none', stroke: '#c0392b', 'stroke-width': 2, 'stroke-dasharray': '3 2' }));
  }
  for (const p of pegs.values()) {
    const isLast = last && last.point && key(last.point) === key(p);
    svg.append(svgEl('circle', { cx: X(p.x), cy: Y(p.y), r: cell * .3, fill: p.colour === 'Black' ? '#222' : '#fff', stroke: path.has(key(p)) ? '#e0a800' : isLast ? '#2d6cdf' : '#222', 'stroke-width': path.has(key(p)) || isLast ? 3 : 1.5, class: 'peg' },
      svgEl('title', {}, `${p.name} (${p.colour})`)));
  }
  root.querySelector('#twixt-board').replaceChildren(svg,
    el('div', { class: 'muted', style: 'font-size:.8rem;margin-top:.3rem' }, 'Black joins left and right, White top and bottom. Gold: the winning path; dashed red: a refused link and what blocked it; green rings: wins at once for the side to move, red dashed: for the opponent.'));
}
