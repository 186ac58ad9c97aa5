// Marine: a map and units editor, the solve, and the plan animated round by round with HP.
import { el, api, examples } from './app.js';

let root, map = [], tool = '#', answer = null, round = 0, timer = null;

export function start(section) {
  root = section;
  const tools = [['#', 'Wall'], ['.', 'Floor'], ['M', 'Marine'], ['z', 'Zergling']];
  section.append(el('div', { class: 'layout' },
    el('div', {},
      el('div', { class: 'panel' }, el('h2', {}, 'Map'),
        el('div', { class: 'row' }, 'Place:', ...tools.map(([t, name]) => el('button', { 'data-tool': t, class: t === tool ? 'on' : '', onclick: () => setTool(t) }, name)),
          el('button', { onclick: async () => load((await examples()).marine) }, 'Example')),
        el('div', { class: 'row' }, 'Rows', el('input', { type: 'number', id: 'marine-rows', min: 1, max: 16, value: 4, style: 'width:4rem', onchange: resize }),
          'Columns', el('input', { type: 'number', id: 'marine-cols', min: 1, max: 16, value: 5, style: 'width:4rem', onchange: resize })),
        el('div', { id: 'marine-board' }),
        el('div', { class: 'row' }, 'Round limit', el('input', { type: 'number', id: 'marine-rounds', min: 0, max: 200, value: 34, style: 'width:5rem' }),
          el('button', { class: 'primary', id: 'marine-solve', onclick: solve }, 'Solve')),
        el('div', { id: 'marine-error' }),
        el('p', { class: 'muted', style: 'font-size:.82rem' }, 'Each round the marine moves one cell or shoots one zergling (1 HP); then every zergling next to it attacks (1 HP per distinct cell) and the others chase it. Fewest rounds to kill them all?'))),
    el('div', {},
      el('div', { class: 'panel' }, el('h2', {}, 'Plan'), el('div', { id: 'marine-verdict', class: 'muted' }, 'Edit the battle and press Solve.'),
        el('div', { class: 'row' }, el('button', { onclick: () => show(0) }, '«'), el('button', { onclick: () => show(round - 1) }, '◀'),
          el('button', { id: 'marine-play', onclick: play }, 'Play'), el('button', { onclick: () => show(round + 1) }, '▶'), el('button', { onclick: () => answer?.plan && show(answer.plan.length) }, '»')),
        el('div', { id: 'marine-hp', class: 'kv' }),
        el('div', { id: 'marine-plan', class: 'steps' })),
      el('div', { class: 'panel' }, el('h2', {}, 'Battle file'),
        el('textarea', { id: 'marine-text', rows: 10, oninput: (e) => load(e.target.value, true) }),
        el('p', { class: 'muted', style: 'font-size:.8rem' }, 'Map rows (# wall, . floor, M the marine, letters zerglings), then "M <hp>" and "<letter> <hp>" lines, or one line "<marine hp> <zergling hp>".')))));
  examples().then((ex) => load(ex.marine));
}

function setTool(t) {
  tool = t;
  root.querySelectorAll('[data-tool]').forEach((b) => b.classList.toggle('on', b.dataset.tool === t));
}

function split(text) {
  const lines = text.split('\n').map((l) => l.trimEnd());
  let i = 0;
  while (i < lines.length && lines[i] && !/\s/.test(lines[i])) i++;
  return { rows: lines.slice(0, i), rest: lines.slice(i).filter((l) => l.trim()).join('\n') };
}

function load(text, fromBox) {
  const { rows } = split(text);
  map = rows.map((r) => [...r]);
  if (!fromBox) root.querySelector('#marine-text').value = text;
  root.querySelector('#marine-rows').value = map.length || 1;
  root.querySelector('#marine-cols').value = Math.max(1, ...map.map((r) => r.length));
  answer = null; clearInterval(timer); drawEditor();
}

function units() { return split(root.querySelector('#marine-text').value).rest; }

function writeText(rest) {
  root.querySelector('#marine-text').value = `${map.map((r) => r.join('')).join('\n')}\n\n${rest}\n`;
}

function resize() {
  const r = Math.max(1, Math.min(16, Number(root.querySelector('#marine-rows').value) || 1));
  const c = Math.max(1, Math.min(16, Number(root.querySelector('#marine-cols').value) || 1));
  map = Array.from({ length: r }, (_, i) => Array.from({ length: c }, (_, j) => map[i]?.[j] ?? '.'));
  writeText(units()); answer = null; drawEditor();
}

function click(r, c) {
  let rest = units();
  const old = map[r][c];
  const perUnit = /^[A-Za-z]\s+\d+/m.test(rest);
  if (tool === 'M') {
    map = map.map((row) => row.map((ch) => (ch === 'M' ? '.' : ch)));
    map[r][c] = 'M';
  } else if (tool === 'z') {
    const used = new Set(map.flat().filter((ch) => /[a-zA-LN-Z]/.test(ch)));
    const letter = [...'abcdefghijklmnopqrstuvwxyz'].find((l) => !used.has(l));
    if (!letter) return;
    map[r][c] = letter;
    if (perUnit) rest += `\n${letter} 3`;
  } else {
    map[r][c] = tool;
  }
  if (/[a-zA-LN-Z]/.test(old) && old !== map[r][c] && perUnit) rest = rest.split('\n').filter((l) => !l.startsWith(`${old} `)).join('\n');
  writeText(rest); answer = null; drawEditor();
}

function drawEditor() {
  drawGrid(map.map((r) => r.join('')), null, click);
  root.querySelector('#marine-plan').replaceChildren();
  root.querySelector('#marine-hp').replaceChildren();
}

function drawGrid(lines, state, onClick) {
  const width = Math.max(1, ...lines.map((l) => l.length));
  const hp = new Map();
  if (state) {
    for (const z of state.zerglings) if (z.cell) hp.set(z.cell, [...(hp.get(z.cell) ?? []), `${z.label}${z.hp}`]);
    hp.set(state.marine.cell, [`${state.marine.hp}`]);
  }
  const grid = el('div', { class: 'grid', id: 'marine-grid', style: `grid-template-columns: repeat(${width}, 40px)` });
  lines.forEach((line, r) => [...line.padEnd(width, '.')].forEach((ch, c) => {
    const wall = ch === '#' || ch === '1';
    const name = `r${r + 1}c${c + 1}`;
    const label = ch === 'M' ? el('span', { class: 'piece-k' }, 'M') : wall || ch === '.' || ch === '0' ? '' : el('span', { class: 'piece-p' }, ch);
    grid.append(el('div', { class: `${wall ? 'wall' : ''} ${onClick ? 'path' : ''}`, title: name, onclick: onClick ? () => onClick(r, c) : undefined },
      label, hp.has(name) ? el('span', { class: 'hp' }, hp.get(name).join(' ')) : ''));
  }));
  root.querySelector('#marine-board').replaceChildren(grid);
}

async function solve() {
  const box = root.querySelector('#marine-error');
  box.replaceChildren();
  clearInterval(timer);
  try {
    answer = await api(`/api/marine/solve?rounds=${Number(root.querySelector('#marine-rounds').value)}`, root.querySelector('#marine-text').value);
  } catch (e) {
    box.append(el('div', { class: 'error', id: 'marine-error-text' }, e.message));
    return;
  }
  const v = root.querySelector('#marine-verdict');
  v.className = '';
  v.replaceChildren(el('div', { class: `verdict ${answer.result === 'win' ? 'win' : 'loss'}`, id: 'marine-result' },
    answer.result === 'win' ? `WIN in ${answer.rounds} rounds` : `LOSE (no win within ${answer.limit} rounds)`),
  el('div', { class: 'muted' }, `${answer.states.toLocaleString()} states stored, ${answer.expanded.toLocaleString()} expanded.`));
  root.querySelector('#marine-plan').replaceChildren(el('div', { 'data-round': 0, onclick: () => show(0) }, 'Start'),
    ...(answer.plan ?? []).map((t) => el('div', { 'data-round': t.round, onclick: () => show(t.round) },
      `${t.round}. ${t.action}${t.damage ? ` — marine loses ${t.damage} HP` : ''}${t.won ? ' — won' : ''}`)));
  show(0);
}

function show(k) {
  if (!answer) return;
  const plan = answer.plan ?? [];
  round = Math.max(0, Math.min(plan.length, k));
  const state = round === 0 ? answer.start : plan[round - 1];
  drawGrid(state.board, state, null);
  root.querySelector('#marine-hp').replaceChildren(el('div', {}, el('b', {}, 'Marine'), `${state.marine.hp} HP at ${state.marine.cell}`),
    ...state.zerglings.map((z) => el('div', {}, el('b', {}, `Zergling ${z.label}`), z.cell ? `${z.hp} HP at ${z.cell}` : 'dead')));
  root.querySelectorAll('#marine-plan div').forEach((d) => d.classList.toggle('current', Number(d.dataset.round) === round));
}

function play() {
  if (!answer?.plan) return;
  clearInterval(timer);
  if (round >= answer.plan.length) show(0);
  timer = setInterval(() => { if (round >= answer.plan.length) clearInterval(timer); else show(round + 1); }, 700);
}
