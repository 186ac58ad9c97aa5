// Marine: a map and units editor, the solve, and the plan animated round by round with HP.
import { el, api, examples, labelledGrid } from './ui.js';
import { t, onLang, getLang } from './i18n.js';
import { count } from './units.js';

let root, map = [], tool = '#', answer = null, round = 0, timer = null, request = 0;
const $ = (sel) => root.querySelector(sel);

export function start(section) {
  root = section;
  const tools = [['#', 'marine.wall'], ['.', 'marine.floor'], ['M', 'marine.marine'], ['z', 'marine.zergling']];
  section.append(el('div', { class: 'layout' },
    el('div', {},
      el('div', { class: 'panel board-panel' }, el('h2', { i18n: 'marine.map' }),
        el('div', { class: 'row' }, el('span', { i18n: 'marine.place' }), ...tools.map(([k, key]) => el('button', { 'data-tool': k, class: k === tool ? 'on' : '', onclick: () => setTool(k), i18n: key })),
          el('button', { id: 'marine-example', onclick: async () => load((await examples()).marine), i18n: 'marine.example' })),
        el('div', { class: 'row' }, el('span', { i18n: 'marine.rows' }), el('input', { type: 'number', id: 'marine-rows', min: 1, max: 16, value: 4, class: 'num', onchange: resize }),
          el('span', { i18n: 'marine.cols' }), el('input', { type: 'number', id: 'marine-cols', min: 1, max: 16, value: 5, class: 'num', onchange: resize })),
        el('div', { id: 'marine-board', class: 'grid-wrap' }),
        el('div', { class: 'row' }, el('span', { i18n: 'marine.limit' }), el('input', { type: 'number', id: 'marine-rounds', min: 0, max: 200, value: 34, class: 'num', onchange: () => clearAnswer() }),
          el('button', { class: 'primary', id: 'marine-solve', onclick: solve, i18n: 'marine.solve' })),
        el('div', { id: 'marine-error' }),
        el('p', { class: 'muted small', i18n: 'marine.help' }))),
    el('div', {},
      el('div', { class: 'panel' }, el('h2', { i18n: 'marine.plan' }), el('div', { id: 'marine-verdict', class: 'muted', i18n: 'marine.prompt' }),
        el('div', { class: 'row nav' }, el('button', { id: 'marine-first', onclick: () => show(0) }, '«'), el('button', { id: 'marine-prev', onclick: () => show(round - 1), i18nTitle: 'key.back' }, '◀'),
          el('button', { id: 'marine-play', onclick: play, i18n: 'marine.play' }), el('button', { id: 'marine-next', onclick: () => show(round + 1), i18nTitle: 'key.forward' }, '▶'),
          el('button', { id: 'marine-last', onclick: () => answer?.plan && show(answer.plan.length) }, '»')),
        el('div', { id: 'marine-hp', class: 'kv' }),
        el('div', { id: 'marine-plan', class: 'steps' })),
      el('div', { class: 'panel' }, el('h2', { i18n: 'marine.file' }),
        el('textarea', { id: 'marine-text', rows: 10, 'aria-label': 'battle file', oninput: (e) => load(e.target.value, true) }),
        el('p', { class: 'muted small', i18n: 'marine.fileHelp' })))));
  onLang(() => { if (answer) { renderAnswer(); show(round); } });
  syncNav();
  // The example, solved at once (as the Twixt page replays its example).
  examples().then((ex) => { if (!$('#marine-text').value) { load(ex.marine); solve(); } });
}

/// ← and → step through the plan.
export function onKey(e) {
  if (!answer) return false;
  if (e.key === 'ArrowLeft') { show(round - 1); return true; }
  if (e.key === 'ArrowRight') { show(round + 1); return true; }
  if (e.key === ' ') { play(); return true; }
  return false;
}

function setTool(k) {
  tool = k;
  root.querySelectorAll('[data-tool]').forEach((b) => b.classList.toggle('on', b.dataset.tool === k));
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
  if (!fromBox) $('#marine-text').value = text;
  $('#marine-rows').value = map.length || 1;
  $('#marine-cols').value = Math.max(1, ...map.map((r) => r.length));
  clearAnswer();
}

function units() { return split($('#marine-text').value).rest; }

function writeText(rest) {
  $('#marine-text').value = `${map.map((r) => r.join('')).join('\n')}\n\n${rest}\n`;
}

function resize() {
  const r = Math.max(1, Math.min(16, Number($('#marine-rows').value) || 1));
  const c = Math.max(1, Math.min(16, Number($('#marine-cols').value) || 1));
  map = Array.from({ length: r }, (_, i) => Array.from({ length: c }, (_, j) => map[i]?.[j] ?? '.'));
  writeText(units()); clearAnswer();
}

/// A click on the map edits it, also while a plan is shown (which it then clears).
function click(r, c) {
  let rest = units();
  const old = map[r]?.[c] ?? '.';
  while (map.length <= r) map.push([]);
  while (map[r].length <= c) map[r].push('.');
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
  writeText(rest); clearAnswer();
}

/// Back to the editor: the map as edited, no plan, no error.
function clearAnswer() {
  clearInterval(timer);
  request += 1;
  answer = null;
  round = 0;
  const v = $('#marine-verdict');
  v.className = 'muted';
  v.dataset.i18n = 'marine.prompt';
  v.textContent = t('marine.prompt');
  $('#marine-plan').replaceChildren();
  $('#marine-hp').replaceChildren();
  $('#marine-error').replaceChildren();
  drawGrid(map.map((r) => r.join('')), null);
  syncNav();
}

function drawGrid(lines, state) {
  const width = Math.max(1, ...lines.map((l) => l.length));
  const hp = new Map();
  if (state) {
    for (const z of state.zerglings) if (z.cell) hp.set(z.cell, [...(hp.get(z.cell) ?? []), `${z.label}${z.hp}`]);
    hp.set(state.marine.cell, [`${state.marine.hp}`]);
  }
  const cells = [];
  lines.forEach((line, r) => [...line.padEnd(width, '.')].forEach((ch, c) => {
    const wall = ch === '#' || ch === '1';
    const name = `r${r + 1}c${c + 1}`;
    const label = ch === 'M' ? el('span', { class: 'piece-k' }, 'M') : wall || ch === '.' || ch === '0' ? '' : el('span', { class: 'piece-p' }, ch);
    cells.push(el('div', { class: `cell ${wall ? 'wall' : ''} path`, title: name, 'data-cell': name, onclick: () => click(r, c) },
      label, hp.has(name) ? el('span', { class: 'hp' }, hp.get(name).join(' ')) : ''));
  }));
  // Row numbers on the left and column numbers on top, as the plan names cells: r3c1.
  const grid = el('div', { class: 'grid', id: 'marine-grid', style: `--cols:${width};--rows:${lines.length}` },
    ...labelledGrid(lines.length, width, cells, (c) => `c${c + 1}`, (r) => `r${r + 1}`));
  $('#marine-board').replaceChildren(grid);
}

async function solve() {
  const id = ++request;
  const box = $('#marine-error');
  box.replaceChildren();
  clearInterval(timer);
  let a;
  try {
    a = await api(`/api/marine/solve?rounds=${Number($('#marine-rounds').value)}`, $('#marine-text').value);
  } catch (e) {
    if (id !== request) return;
    // An error clears the plan of the last battle.
    clearAnswer();
    $('#marine-error').append(el('div', { class: 'error', id: 'marine-error-text' }, e.message));
    return;
  }
  if (id !== request) return;
  answer = a;
  renderAnswer();
  show(0);
}

/// An action such as `move down` or `shoot c` in the interface's language.
function actionText(action) {
  if (getLang() === 'en') return action;
  const m = /^(move|shoot) (\S+)$/.exec(action);
  if (!m) return action;
  return m[1] === 'move' ? t('marine.move', t(`marine.dir.${m[2]}`)) : t('marine.shoot', m[2]);
}

function renderAnswer() {
  const v = $('#marine-verdict');
  v.className = '';
  delete v.dataset.i18n;
  const num = count;
  v.replaceChildren(el('div', { class: `verdict ${answer.result === 'win' ? 'win' : 'loss'}`, id: 'marine-result' },
    answer.result === 'win' ? t('marine.win', answer.rounds) : t('marine.lose', answer.limit)),
  el('div', { class: 'muted' }, t('marine.states', num(answer.states), num(answer.expanded))));
  $('#marine-plan').replaceChildren(el('div', { 'data-round': 0, onclick: () => show(0), i18n: 'marine.start' }),
    ...(answer.plan ?? []).map((r) => el('div', { 'data-round': r.round, onclick: () => show(r.round) },
      `${r.round}. ${actionText(r.action)}${r.damage ? ` — ${t('marine.damage', r.damage)}` : ''}${r.won ? ` — ${t('marine.won')}` : ''}`)));
}

function show(k) {
  if (!answer) return;
  const plan = answer.plan ?? [];
  round = Math.max(0, Math.min(plan.length, k));
  const state = round === 0 ? answer.start : plan[round - 1];
  drawGrid(state.board, state);
  $('#marine-hp').replaceChildren(el('div', {}, el('b', { i18n: 'marine.marine' }), t('marine.hpAt', state.marine.hp, state.marine.cell)),
    ...state.zerglings.map((z) => el('div', {}, el('b', {}, t('marine.zerglingNamed', z.label)), z.cell ? t('marine.hpAt', z.hp, z.cell) : t('marine.dead'))));
  root.querySelectorAll('#marine-plan div').forEach((d) => d.classList.toggle('current', Number(d.dataset.round) === round));
  syncNav();
}

function syncNav() {
  const end = answer?.plan ? answer.plan.length : 0;
  $('#marine-first').disabled = $('#marine-prev').disabled = !answer || round === 0;
  $('#marine-next').disabled = $('#marine-last').disabled = !answer || round === end;
  $('#marine-play').disabled = !answer || end === 0;
}

function play() {
  if (!answer?.plan?.length) return;
  clearInterval(timer);
  if (round >= answer.plan.length) show(0);
  timer = setInterval(() => { if (!answer || round >= answer.plan.length) clearInterval(timer); else show(round + 1); }, 700);
}
