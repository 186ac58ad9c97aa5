// Xiangqi: the board, every legal move with its exact result, the main line, the game played
// so far, the material's statistics, a position editor, and play against perfect play.
//
// Places made for additions:
// - RULES: the rules menu (a value of the API's `rules` and a key of the string table);
// - hooks.noTable: called when a material has no table (the analysis panel's `#xq-no-table`
//   box is theirs to fill; `reload()` asks the server again); hooks.generated: called by
//   whoever generated a material's tables;
// - the examples menu is xiangqi-examples.js's (from `/api/examples`).
import { el, option, api, copyText, flash } from './ui.js';
import { fillExamples, showExampleNames, estimateExamples } from './xiangqi-examples.js';
import { count } from './units.js';
import { t, getLang, onLang } from './i18n.js';
import { drawBoard, pieceIcon } from './xiangqi-board.js';
import { parseFen, toFen, playUci, switchTurn, swapColours, turnOf, chineseMove, wxfFile } from './xiangqi-notation.js';

/// The rule sets of the rules menu: the API's value and the key of its name.
export const RULES = [
  { value: 'standard', key: 'rules.standard' },
  { value: 'hdu', key: 'rules.hdu' },
  { value: 'perpetual-check', key: 'rules.perpetual-check' },
  { value: 'check-and-chase', key: 'rules.check-and-chase' },
];

/// Functions other modules add: `noTable(box, { material, rules, fen, error, reload })`; and
/// those called with `(material, rules)` when a generation finished (`generated`).
export const hooks = { noTable: [], generated: [estimateExamples] };

const START_FEN = '3k5/9/9/9/9/9/9/9/4R4/5K3 w';
/// No Xiangqi FEN is longer (90 points, separators, side, counters); longer text is not sent.
const MAX_FEN = 200;
const REPLY_DELAY = 350;

let root;
let game = [];        // the positions played through: { fen, uci, wxf, after } (after: the value of fen for its side to move)
let at = 0;           // the position shown: an index into game
let gameId = '';      // names this game in the browser's history entries
let answer = null;    // the API's answer for game[at], when it came
let failure = null;   // the API's error for game[at], when it failed
let selected = null;  // the square of the piece selected on the board
let editing = false, editPiece = 'R', editBoard = {}, editTurn = 'w';
let playing = null;   // 'w' or 'b': the human's side
let replyDue = false; // perfect play answers the move just played
let request = 0;
let notice = null;    // a message about the address (an unknown rule set)
const cache = new Map();

const $ = (sel) => root.querySelector(sel);
const rules = () => $('#xq-rules').value;
const red = (fen) => turnOf(fen) === 'w';
const sideName = (w) => t(w === 'w' ? 'side.red' : 'side.black');
const humanToMove = () => playing && turnOf(game[at].fen) === playing;

// ---- Results as words and colours ----

/// The colour of a result: green wins, red losses, grey draws; strongest near the end.
export function resultColour(cls, plies) {
  if (cls === 'draw') return '#777';
  const near = plies === null ? 0.3 : Math.exp(-(plies - 1) / 12);
  const light = Math.round(44 - 16 * near);
  return cls === 'win' ? `hsl(140, 64%, ${light}%)` : `hsl(4, 70%, ${light}%)`;
}

/// The tint behind a result: stronger near the end of the game.
function resultTint(cls, plies) {
  if (cls === 'draw') return 'transparent';
  const near = plies === null ? 0.3 : Math.exp(-(plies - 1) / 12);
  const alpha = (0.05 + 0.25 * near).toFixed(3);
  return cls === 'win' ? `rgba(31, 138, 59, ${alpha})` : `rgba(192, 57, 43, ${alpha})`;
}

/// The result of a move for the side that plays it: the API's `for_mover` (`category`, `dtm`
/// from the position before the move, `rule`).
export function moverResult(v) {
  if (v.category === 'draw') return { cls: 'draw', text: t('result.draw'), plies: null };
  if (v.rule) return v.category === 'win' ? { cls: 'win', text: t('result.winRule'), plies: null } : { cls: 'loss', text: t('result.lossRule'), plies: null };
  const plies = Math.abs(v.dtm);
  return v.category === 'win' ? { cls: 'win', text: t('result.winIn', plies), plies } : { cls: 'loss', text: t('result.lossIn', plies), plies };
}

/// The value of a position after a move (for the side to move there) as the value of that
/// move for its mover: the other side's category, one ply more.
function forMover(after) {
  if (after.category === 'draw') return { category: 'draw', dtm: null };
  const category = after.category === 'win' ? 'loss' : 'win';
  if (after.rule) return { category, dtm: null, rule: after.rule };
  const plies = Math.abs(after.dtm) + 1;
  return { category, dtm: category === 'win' ? plies : -plies };
}

/// How the main line ends, in the interface's language.
function lineEndText(a, fen) {
  if (getLang() === 'en') return a.line_end_text;
  const n = a.main_line.length;
  const last = n % 2 === 0 ? turnOf(fen) : (turnOf(fen) === 'w' ? 'b' : 'w');
  const other = last === 'w' ? 'b' : 'w';
  const plies = /Ply (\d+) brings back (?:the start position|the position after ply (\d+))/.exec(a.line_end_text);
  switch (a.line_end) {
    case 'checkmate': return t('end.checkmate', sideName(last));
    case 'stalemate': return t('end.stalemate', sideName(last));
    case 'general_captured': return t('end.captured', sideName(other), sideName(last));
    case 'perpetual_check': return t('end.perpetual', sideName(/Red can only/.test(a.line_end_text) ? 'w' : 'b'), plies?.[1], plies?.[2] ?? 0);
    case 'perpetual_chase': {
      // The chased piece (`chased`: color, role, square; null when the loser only checks).
      const chased = a.chased ? t('end.chased', sideName(a.chased.color === 'red' ? 'w' : 'b'), t(`piece.${a.chased.role}`), a.chased.square) : null;
      return t('end.perpetualChase', sideName(/Red can only/.test(a.line_end_text) ? 'w' : 'b'), plies?.[1], plies?.[2] ?? 0, chased);
    }
    case 'repetition': return t('end.repetition', plies?.[1], plies?.[2] ?? 0);
    case 'bounded': return t('end.bounded', n);
    default: return a.line_end_text;
  }
}

function positionResult(a, fen) {
  const side = sideName(turnOf(fen));
  if (!a.moves.length) {
    if (playing) {
      const humanLost = (a.category === 'loss') === (turnOf(fen) === playing);
      return { cls: a.category === 'draw' ? 'draw' : humanLost ? 'loss' : 'win', text: t(humanLost ? 'play.youLose' : 'play.youWin', lineEndText(a, fen)) };
    }
    return { cls: 'over', text: t('verdict.over', lineEndText(a, fen)) };
  }
  if (a.category === 'draw') return { cls: 'draw', text: t('verdict.draw', side) };
  if (a.rule) return { cls: a.category, text: t(a.category === 'win' ? 'verdict.winRule' : 'verdict.lossRule', side, t(`rule.${a.rule}`)) };
  const n = Math.abs(a.dtm);
  return { cls: a.category, text: t(a.category === 'win' ? 'verdict.win' : 'verdict.loss', side, n) };
}

/// A move's name in the interface's notation: WXF, or Chinese in Chinese.
function moveName(wxf, fenBefore) {
  if (!wxf) return '';
  return getLang() === 'zh' ? chineseMove(wxf, red(fenBefore)) : wxf;
}

// ---- The page ----

export function start(section, params) {
  root = section;
  const check = (id, key, onchange, checked = false, title = null) => el('label', { class: 'check', i18nTitle: title ?? undefined }, el('input', { type: 'checkbox', id, onchange, checked }), ' ', el('span', { i18n: key }));
  // Two columns on a wide screen: the board with its controls and the editor, then the
  // analysis. On a narrow one (style.css) a single column, the verdict and the moves right
  // under the board, its controls after them: each panel has its place by its id.
  section.append(el('div', { class: 'layout xq-layout' },
    el('div', {},
      el('div', { class: 'panel board-panel', id: 'xq-board-panel' },
        el('div', { id: 'xq-board', class: 'board' }),
        el('div', { class: 'row nav' },
          el('button', { id: 'xq-back', onclick: back, i18nTitle: 'key.back' }, '◀ ', el('span', { i18n: 'xq.back' })),
          el('button', { id: 'xq-forward', onclick: forward, i18nTitle: 'key.forward' }, el('span', { i18n: 'xq.forward' }), ' ▶'),
          el('button', { id: 'xq-best', onclick: playBest, i18nTitle: 'key.best', i18n: 'xq.best' }))),
      el('div', { class: 'panel board-controls', id: 'xq-controls' },
        el('div', { class: 'row' },
          check('xq-flip', 'xq.flip', draw, false, 'key.flip'),
          check('xq-letters', 'xq.letters', () => { if (editing) { buildEditor(); syncEditorState(); } draw(); }),
          check('xq-arrow', 'xq.arrow', draw, true),
          el('select', { id: 'xq-rules', 'aria-label': 'rules', onchange: () => { notice = null; changePosition(game[at].fen, true); estimateExamples(); } }, ...RULES.map((r) => option(r.value, r.key)))),
        el('div', { class: 'row' },
          el('input', { type: 'text', class: 'fen', id: 'xq-fen', spellcheck: 'false', 'aria-label': 'FEN', onkeydown: (e) => { if (e.key === 'Enter') loadFenBox(); } }),
          el('button', { id: 'xq-load', onclick: loadFenBox, i18n: 'xq.load' })),
        el('div', { class: 'row' },
          el('button', { id: 'xq-turn', onclick: () => newPosition(switchTurn(game[at].fen)) }),
          el('button', { id: 'xq-swap', onclick: () => newPosition(swapColours(game[at].fen)), i18nTitle: 'xq.swapTitle', i18n: 'xq.swap' }))),
      el('div', { class: 'panel', id: 'xq-editor-panel' }, el('h2', { i18n: 'xq.editorTitle' }),
        el('div', { class: 'row' },
          el('button', { id: 'xq-edit', onclick: toggleEdit, i18n: 'xq.edit' }),
          el('select', { id: 'xq-examples', 'aria-label': 'examples', onchange: (e) => { if (e.target.value) { stopPlay(); newPosition(e.target.value); e.target.value = ''; } } },
            option('', 'xq.examples'))),
        el('div', { id: 'xq-editor', hidden: true }))),
    el('div', {},
      el('div', { class: 'panel', id: 'xq-verdict-panel' },
        el('div', { id: 'xq-verdict', class: 'verdict' }, '…'),
        el('div', { id: 'xq-info', class: 'muted' }),
        el('div', { id: 'xq-error' }),
        el('div', { id: 'xq-no-table' }),
        el('div', { class: 'row', id: 'xq-play-row' },
          el('button', { id: 'xq-play-red', onclick: () => startPlay('w'), i18n: 'play.red' }),
          el('button', { id: 'xq-play-black', onclick: () => startPlay('b'), i18n: 'play.black' }),
          el('button', { id: 'xq-stop', onclick: stopPlay, hidden: true, i18n: 'play.stop' })),
        el('div', { id: 'xq-play-status' })),
      el('div', { class: 'panel', id: 'xq-moves-panel' }, el('h2', { i18n: 'xq.moves' }),
        el('table', { class: 'moves', id: 'xq-moves' })),
      el('div', { class: 'panel', id: 'xq-line-panel' }, el('h2', { i18n: 'xq.line' }), el('div', { id: 'xq-line', class: 'line' })),
      el('div', { class: 'panel', id: 'xq-game-panel' },
        el('div', { class: 'panel-head' }, el('h2', { i18n: 'xq.game' }),
          el('div', { class: 'row tight' },
            el('button', { id: 'xq-copy-fen', onclick: (e) => copy(e.currentTarget, game[at].fen), i18n: 'xq.copyFen' }),
            el('button', { id: 'xq-copy-link', onclick: (e) => copy(e.currentTarget, location.origin + currentUrl()), i18n: 'xq.copyLink' }),
            el('button', { id: 'xq-export', onclick: toggleExport, i18n: 'xq.export' }))),
        el('div', { id: 'xq-game', class: 'game' }),
        el('div', { id: 'xq-export-box', hidden: true },
          el('textarea', { id: 'xq-wxf', rows: 8, readonly: true, spellcheck: 'false' }),
          el('div', { class: 'row' }, el('a', { id: 'xq-download', download: 'endgame.wxf', href: '#', i18n: 'xq.download' })))),
      el('div', { class: 'panel', id: 'xq-stats-panel' }, el('h2', { i18n: 'xq.stats' }), el('div', { id: 'xq-stats', class: 'kv' })))));
  fillExamples($('#xq-examples'), rules);
  onLang(() => {
    showExampleNames();
    if (editing) { buildEditor(); syncEditorState(); }
    render();
    if (!$('#xq-export-box').hidden) fillExport();
    statsFor = '';
    if (answer) loadStats(answer.material);
  });
  onUrl(params, history.state);
}

/// The address of the position shown.
export function currentUrl() {
  const fen = game[at]?.fen ?? START_FEN;
  return `/xiangqi?fen=${encodeURIComponent(fen).replace(/%2F/g, '/')}${rules() === 'standard' ? '' : `&rules=${encodeURIComponent(rules())}`}`;
}

/// The browser opened one of our addresses (at start, or going back or forward): a position
/// of this game goes there, any other starts a game.
export function onUrl(params, state) {
  const wanted = params.get('rules') ?? 'standard';
  const before = $('#xq-rules').value;
  if (RULES.some((r) => r.value === wanted)) {
    $('#xq-rules').value = wanted;
    notice = null;
  } else {
    $('#xq-rules').value = 'standard';
    notice = { key: 'xq.badRules', args: [wanted, RULES.map((r) => r.value).join(', ')] };
  }
  const fen = params.get('fen') ?? game[at]?.fen ?? START_FEN;
  // The results after the moves played were those of the other rules.
  if ($('#xq-rules').value !== before) for (const e of game) delete e.after;
  replyDue = false;
  if (editing) closeEditor();
  let i = -1;
  if (state?.game === gameId && game[state.at]?.fen === fen) i = state.at;
  else i = game.findIndex((e) => e.fen === fen);
  if (i >= 0) at = i;
  else {
    stopPlay();
    game = [{ fen }];
    at = 0;
    gameId = Math.random().toString(36).slice(2);
  }
  history.replaceState({ ...history.state, tab: 'xiangqi', game: gameId, at }, '');
  load();
}

/// Shortcuts: ← → step, space plays the best move, f flips, Home and End.
export function onKey(e) {
  if (e.key === 'f' || e.key === 'F') { setFlip(!$('#xq-flip').checked); return true; }
  if (editing) return false;
  if (e.key === 'ArrowLeft') { back(); return true; }
  if (e.key === 'ArrowRight') { forward(); return true; }
  if (e.key === ' ') { playBest(); return true; }
  if (e.key === 'Home') { if (!playing) goTo(0); return true; }
  if (e.key === 'End') { if (!playing) goTo(game.length - 1); return true; }
  return false;
}

// ---- Positions and history ----

/// Shows game[i] as a new history entry.
function goTo(i) {
  if (i < 0 || i >= game.length || editing) return;
  at = i;
  selected = null;
  pushUrl();
  load();
}

/// A new game from `fen` (an example, an edited or typed position, the side switched, the
/// colours swapped).
function newPosition(fen) {
  if (editing) closeEditor();
  notice = null;
  game = [{ fen }];
  at = 0;
  gameId = Math.random().toString(36).slice(2);
  if (playing) stopPlay();
  pushUrl();
  load();
}

/// The same position under other rules (a new history entry): the game's values are refetched.
function changePosition(fen, keepGame) {
  if (!keepGame) { newPosition(fen); return; }
  for (const e of game) delete e.after;
  pushUrl();
  load();
}

function pushUrl() {
  // Only the shown tab owns the address; a FEN too long to send is not put into it either.
  if (root.hidden || game[at].fen.length > MAX_FEN) return;
  const url = currentUrl();
  // While playing, a position with perfect play to move is a passing entry: the reply takes
  // its place, so the browser's Back takes back a move and its reply, as ◀ does, and never
  // stops on perfect play's turn.
  const passing = !!playing && !humanToMove();
  const state = { tab: 'xiangqi', game: gameId, at, passing };
  const last = history.state;
  const replyToPassing = last?.passing && last.game === gameId && last.at === at - 1;
  if (location.pathname + location.search === url || replyToPassing) history.replaceState(state, '', url);
  else history.pushState(state, '', url);
}

function loadFenBox() {
  stopPlay();
  newPosition($('#xq-fen').value.trim());
}

function back() {
  if (editing) return;
  if (playing) {
    // A take-back while playing takes back the pair and waits for the player.
    const j = previousHumanTurn();
    if (j >= 0) { replyDue = false; goTo(j); }
    return;
  }
  goTo(at - 1);
}

function forward() {
  if (editing) return;
  if (playing) {
    const j = nextHumanTurn();
    if (j > at) { replyDue = false; goTo(j); }
    return;
  }
  goTo(at + 1);
}

function previousHumanTurn() {
  for (let j = at - 1; j >= 0; j--) if (turnOf(game[j].fen) === playing) return j;
  return -1;
}

function nextHumanTurn() {
  for (let j = at + 1; j < game.length; j++) if (turnOf(game[j].fen) === playing) return j;
  return game.length - 1;
}

// ---- The analysis ----

async function load() {
  const id = ++request;
  const fen = game[at].fen;
  answer = null;
  failure = null;
  selected = null;
  $('#xq-fen').value = fen;
  if (fen.length > MAX_FEN) {
    failure = { message: t('xq.fenTooLong', fen.length, MAX_FEN) };
    render();
    return;
  }
  const key = `${rules()} ${fen}`;
  let a = cache.get(key);
  if (!a) {
    render();
    try {
      a = await api(`/api/xiangqi?fen=${encodeURIComponent(fen)}&rules=${encodeURIComponent(rules())}`);
    } catch (e) {
      if (id !== request) return;
      failure = e;
      render();
      return;
    }
    if (id !== request) return;
    cache.set(key, a);
    if (cache.size > 400) cache.delete(cache.keys().next().value);
  }
  answer = a;
  game[at].after = { category: a.category, dtm: a.dtm, rule: a.rule };
  render();
  loadStats(a.material);
  if (game.some((e, i) => i > 0 && !e.after)) fillResults();
  if (playing && replyDue && a.moves.length && !humanToMove()) {
    setTimeout(() => {
      if (playing && replyDue && answer === a && !humanToMove()) {
        replyDue = false;
        play(a.moves[0]);
      }
    }, REPLY_DELAY);
  }
}

function render() {
  renderAnalysis();
  renderGame();
  renderControls();
  renderPlayStatus();
  draw();
}

function renderAnalysis() {
  const fen = game[at].fen;
  const verdict = $('#xq-verdict'), info = $('#xq-info'), table = $('#xq-moves'), line = $('#xq-line');
  const errorBox = $('#xq-error'), noTable = $('#xq-no-table');
  errorBox.replaceChildren(...(notice ? [el('div', { class: 'notice', id: 'xq-notice' }, t(notice.key, ...notice.args))] : []));
  noTable.replaceChildren();
  if (!answer) {
    table.replaceChildren();
    line.replaceChildren();
    info.textContent = '';
    if (!failure) {
      verdict.className = 'verdict muted';
      verdict.textContent = t('xq.solving');
      return;
    }
    // An error clears the analysis: no verdict, moves, line or statistics of another position.
    verdict.className = 'verdict muted';
    verdict.textContent = t('xq.noAnswer');
    errorBox.append(el('div', { class: 'error', id: 'xq-error-text' }, failure.message));
    statsFor = '';
    $('#xq-stats').replaceChildren();
    if (failure.status === 404) {
      const material = failure.message.match(/material (\S+) is not generated/)?.[1] ?? null;
      for (const hook of hooks.noTable) hook(noTable, { material, rules: rules(), fen, error: failure, reload: () => { cache.clear(); load(); } });
    }
    return;
  }
  const a = answer;
  const v = positionResult(a, fen);
  verdict.className = `verdict ${v.cls}`;
  verdict.textContent = v.text;
  const rulesName = t(RULES.find((r) => r.value === a.rules)?.key ?? a.rules);
  info.textContent = `${a.material} · ${rulesName}${a.in_check ? ` · ${t('xq.inCheck')}` : ''}`;
  table.replaceChildren(el('thead', {}, el('tr', {}, el('th', { i18n: 'xq.colMove' }), el('th', { i18n: 'xq.colIccs' }), el('th', { i18n: 'xq.colResult' }))),
    el('tbody', {}, ...a.moves.map((m) => {
      const r = moverResult(m.for_mover);
      const capture = m.capture ? ` ×${t(`piece.${m.capture}`)}` : '';
      return el('tr', { class: r.cls, 'data-uci': m.uci, 'data-wxf': m.wxf, onclick: () => { if (!editing && canMove()) play(m); } },
        el('td', { class: 'wxf' }, moveName(m.wxf, fen)), el('td', { class: 'uci' }, m.uci + capture),
        el('td', { class: 'res', style: `color:${resultColour(r.cls, r.plies)};background:${resultTint(r.cls, r.plies)}` }, r.text));
    })));
  if (!a.moves.length) table.append(el('tr', {}, el('td', { class: 'muted', colspan: 3 }, t('xq.noMove', lineEndText(a, fen)))));
  // The main line: each move opens the position after it.
  const spans = [];
  let before = fen;
  a.main_line.forEach((uci, i) => {
    const name = moveName(a.main_line_wxf[i], before);
    spans.push(el('span', { 'data-ply': i + 1, title: uci, onclick: () => { if (!playing) branch(i + 1); } }, `${i + 1}. ${name}`), ' ');
    before = playUci(before, uci);
  });
  line.replaceChildren(...spans, el('div', { class: 'muted', id: 'xq-line-end' }, `${t('xq.plies', a.main_line.length)}. ${lineEndText(a, fen)}`));
}

/// Plays the first `k` moves of the main line (a new branch of the game from here).
function branch(k) {
  const a = answer;
  game = game.slice(0, at + 1);
  let fen = game[at].fen;
  for (let i = 0; i < k; i++) {
    const uci = a.main_line[i];
    const next = playUci(fen, uci);
    game.push({ fen: next, uci, wxf: a.main_line_wxf[i], after: valueAlongLine(a, i + 1) });
    fen = next;
  }
  goTo(game.length - 1);
}

/// The value, for its side to move, of the position `k` plies down the main line of `a`.
function valueAlongLine(a, k) {
  if (a.category === 'draw') return { category: 'draw', dtm: null };
  const flip = k % 2 === 1;
  const category = flip ? (a.category === 'win' ? 'loss' : 'win') : a.category;
  if (a.rule) return { category, dtm: null, rule: a.rule };
  const n = Math.abs(a.dtm) - k;
  return { category, dtm: category === 'win' ? n : -n };
}

function canMove() {
  if (!answer || editing) return false;
  return !playing || humanToMove();
}

/// Plays a move of the answer's list (the player's or perfect play's).
function play(m) {
  const fen = game[at].fen;
  if (playing && humanToMove()) replyDue = true;
  game = game.slice(0, at + 1);
  game.push({ fen: playUci(fen, m.uci), uci: m.uci, wxf: m.wxf, after: { category: m.category, dtm: m.dtm, rule: m.rule } });
  goTo(at + 1);
}

/// Space: the best move for the side to move (while playing, also perfect play's waiting move).
function playBest() {
  if (!answer || !answer.moves.length || editing) return;
  if (playing && !humanToMove()) replyDue = false;
  play(answer.moves[0]);
}

function startPlay(side) {
  if (editing || !answer || !answer.moves.length) return;
  playing = side;
  setFlip(side === 'b');
  game = game.slice(0, at + 1);
  if (!humanToMove()) {
    // Perfect play moves first: its move takes this entry's place in the history.
    history.replaceState({ ...history.state, passing: true }, '');
    replyDue = false;
    play(answer.moves[0]);
    return;
  }
  render();
}

function stopPlay() {
  playing = null;
  replyDue = false;
  if (game.length) render();
}

function setFlip(on) {
  $('#xq-flip').checked = on;
  draw();
}

function renderControls() {
  const over = !answer || !answer.moves.length;
  $('#xq-back').disabled = editing || (playing ? previousHumanTurn() < 0 : at <= 0);
  $('#xq-forward').disabled = editing || (playing ? nextHumanTurn() <= at : at >= game.length - 1);
  $('#xq-best').disabled = editing || over || (playing && humanToMove() === false && replyDue);
  $('#xq-play-red').disabled = editing || over;
  $('#xq-play-black').disabled = editing || over;
  $('#xq-play-red').hidden = $('#xq-play-black').hidden = !!playing;
  $('#xq-stop').hidden = !playing;
  const parsed = parseFen(game[at].fen);
  $('#xq-turn').disabled = editing || !parsed;
  $('#xq-swap').disabled = editing || !parsed;
  $('#xq-turn').textContent = t('xq.turn', sideName(parsed?.turn ?? 'w'));
  $('#xq-turn').title = t('xq.turnTitle');
}

function renderPlayStatus() {
  const box = $('#xq-play-status');
  if (!playing) { box.replaceChildren(); return; }
  const you = sideName(playing);
  let text;
  // At the end the verdict says who won; the status says no more.
  if (!answer || !answer.moves.length) text = t('play.yours', you);
  else if (humanToMove()) text = t('play.yourMove', you);
  else if (replyDue) text = t('play.thinking', you);
  else text = t('play.waiting', you);
  box.replaceChildren(el('div', { class: 'muted', id: 'xq-play-text' }, text));
}

// ---- The game played so far ----

function renderGame() {
  const box = $('#xq-game');
  const black = turnOf(game[0].fen) === 'b';
  const cells = [];
  const entry = (i) => {
    const e = game[i];
    const r = e.after ? moverResult(forMover(e.after)) : null;
    return el('span', { class: `ply${i === at ? ' current' : ''}`, 'data-ply': i, onclick: () => { replyDue = false; goTo(i); } },
      el('span', { class: 'mv' }, moveName(e.wxf, game[i - 1].fen)),
      r ? el('span', { class: `res ${r.cls}`, style: `color:${resultColour(r.cls, r.plies)}` }, r.text) : null);
  };
  cells.push(el('div', { class: 'moveno' }), el('span', { class: `ply start${at === 0 ? ' current' : ''}`, 'data-ply': 0, onclick: () => { replyDue = false; goTo(0); } }, t('xq.start')));
  const plies = game.length - 1;
  const first = black ? 1 : 0;
  for (let k = -first; k < plies && plies > 0; k += 2) {
    const n = (k + first) / 2 + 1;
    cells.push(el('div', { class: 'moveno' }, `${n}.`));
    cells.push(k >= 0 ? entry(k + 1) : el('span', { class: 'ply empty' }, '…'));
    cells.push(k + 1 < plies ? entry(k + 2) : el('span'));
  }
  box.replaceChildren(...cells);
  // Keep the current move in view inside the list (never scroll the page).
  const current = box.querySelector('.current');
  if (current) {
    const top = current.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - current.offsetHeight) box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  }
  if (!$('#xq-export-box').hidden) fillExport();
}

/// Asks for the results of the game's positions not seen under these rules (after a change
/// of rules), one at a time, then shows them.
let filling = false;
async function fillResults() {
  if (filling) return;
  filling = true;
  const r = rules();
  try {
    for (const e of game.slice(1)) {
      if (e.after) continue;
      const key = `${r} ${e.fen}`;
      let a = cache.get(key);
      if (!a) {
        try { a = await api(`/api/xiangqi?fen=${encodeURIComponent(e.fen)}&rules=${encodeURIComponent(r)}`); } catch { continue; }
        cache.set(key, a);
      }
      if (rules() !== r) return;
      e.after = { category: a.category, dtm: a.dtm, rule: a.rule };
    }
  } finally {
    filling = false;
  }
  renderGame();
}

async function copy(button, text) {
  flash(button, (await copyText(text)) ? 'xq.copied' : 'xq.copyFailed');
}

function toggleExport() {
  const box = $('#xq-export-box');
  box.hidden = !box.hidden;
  if (!box.hidden) fillExport();
}

/// The game as a WXF file, in the box and behind the download link.
function fillExport() {
  const last = answer && !answer.moves.length && at === game.length - 1 ? answer : null;
  let result = '*';
  if (last) {
    const redToMove = turnOf(game[at].fen) === 'w';
    result = last.category === 'draw' ? '1/2-1/2' : (last.category === 'win') === redToMove ? '1-0' : '0-1';
  }
  const now = new Date();
  const date = `${now.getFullYear()}.${String(now.getMonth() + 1).padStart(2, '0')}.${String(now.getDate()).padStart(2, '0')}`;
  const text = wxfFile({ start: game[0].fen, moves: game.slice(1).map((e) => e.wxf), result, rules: rules(), date });
  $('#xq-wxf').value = text;
  const link = $('#xq-download');
  if (link.href.startsWith('blob:')) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
}

// ---- Statistics ----

let statsFor = '';
async function loadStats(material) {
  const key = `${material}/${rules()}`;
  if (statsFor === key) return;
  statsFor = key;
  const box = $('#xq-stats');
  box.replaceChildren(el('span', { class: 'muted' }, t('stats.counting', material)));
  try {
    const s = await api(`/api/xiangqi/stats?material=${material}&rules=${encodeURIComponent(rules())}`);
    if (statsFor !== key) return;
    const pct = (n) => `${(100 * n / s.positions).toFixed(1)} %`;
    const num = count;
    const rulesName = t(RULES.find((r) => r.value === s.rules)?.key ?? s.rules);
    box.replaceChildren(
      el('div', {}, el('b', { i18n: 'stats.material' }), `${s.material} (${rulesName})`),
      el('div', {}, el('b', { i18n: 'stats.positions' }), num(s.positions)),
      el('div', {}, el('b', { i18n: 'stats.wins' }), el('span', { class: 'win' }, `${num(s.wins)} (${pct(s.wins)})`), ` ${t('stats.forMover')}`),
      el('div', {}, el('b', { i18n: 'stats.draws' }), el('span', { class: 'draw' }, `${num(s.draws)} (${pct(s.draws)})`)),
      el('div', {}, el('b', { i18n: 'stats.losses' }), el('span', { class: 'loss' }, `${num(s.losses)} (${pct(s.losses)})`)),
      ...(s.wins_by_rule === undefined ? [] : [
        el('div', {}, el('b', { i18n: 'stats.standardDraws' }), t('stats.byRule', num(s.standard_draws), num(s.wins_by_rule), num(s.losses_by_rule)))]),
      el('div', {}, el('b', { i18n: 'stats.longest' }), t('stats.longestText', s.longest_red_win_plies, s.longest_black_win_plies)));
  } catch (e) {
    if (statsFor === key) box.replaceChildren(el('span', { class: 'muted' }, e.message));
  }
}

// ---- The board ----

function draw() {
  if (!root) return;
  const fen = editing ? toFen(editBoard, editTurn) : game[at].fen;
  const board = parseFen(fen)?.board ?? {};
  const targets = new Map();
  if (!editing && answer && selected) {
    for (const m of answer.moves) if (m.uci.startsWith(selected)) {
      const r = moverResult(m.for_mover);
      targets.set(m.uci.slice(2, 4), { colour: resultColour(r.cls, r.plies), title: `${moveName(m.wxf, fen)}: ${r.text}` });
    }
  }
  let arrow = null;
  if (!editing && answer && answer.moves.length && $('#xq-arrow').checked) {
    const r = moverResult(answer.moves[0].for_mover);
    arrow = { uci: answer.moves[0].uci, colour: resultColour(r.cls, r.plies) };
  }
  drawBoard($('#xq-board'), {
    board, targets, arrow, selected,
    flip: $('#xq-flip').checked,
    letters: $('#xq-letters').checked,
    last: editing ? null : game[at].uci,
    onPoint: clickPoint,
  });
}

function clickPoint(sq) {
  if (editing) { editAt(sq); return; }
  if (!answer) return;
  if (selected) {
    const m = answer.moves.find((mv) => mv.uci === `${selected}${sq}`);
    if (m && canMove()) { selected = null; play(m); return; }
  }
  const p = parseFen(game[at].fen).board[sq];
  const mine = p && ((p === p.toUpperCase()) === red(game[at].fen));
  selected = mine && selected !== sq ? sq : null;
  draw();
}

// ---- The editor ----

function toggleEdit() {
  if (editing) {
    // Done: analyse the edited position; an illegal one shows the server's message.
    const fen = toFen(editBoard, editTurn);
    closeEditor();
    newPosition(fen);
    return;
  }
  stopPlay();
  const parsed = parseFen(game[at].fen) ?? { board: {}, turn: 'w' };
  editing = true;
  editBoard = parsed.board;
  editTurn = parsed.turn;
  $('#xq-edit').textContent = t('xq.done');
  $('#xq-edit').dataset.i18n = 'xq.done';
  $('#xq-editor').hidden = false;
  buildEditor();
  checkEdit();
  render();
}

function closeEditor() {
  editing = false;
  $('#xq-editor').hidden = true;
  $('#xq-edit').dataset.i18n = 'xq.edit';
  $('#xq-edit').textContent = t('xq.edit');
}

function buildEditor() {
  const letters = $('#xq-letters').checked;
  const pieceButton = (p) => el('button', { 'data-piece': p, class: `piece-button${p === editPiece ? ' on' : ''}`, title: t(`piece.${p}`), 'aria-label': t(`piece.${p}`), onclick: () => { editPiece = p; syncEditor(); } }, pieceIcon(p, letters));
  $('#xq-editor').replaceChildren(
    el('div', { class: 'editor-pieces' }, ...'KABNRCP'.split('').map(pieceButton)),
    el('div', { class: 'editor-pieces' }, ...'kabnrcp'.split('').map(pieceButton),
      el('button', { 'data-piece': '', class: editPiece === '' ? 'on' : '', onclick: () => { editPiece = ''; syncEditor(); } }, '✕ ', el('span', { i18n: 'editor.remove' }))),
    el('div', { class: 'row' }, el('span', { i18n: 'editor.toMove' }),
      el('select', { id: 'xq-edit-turn', onchange: (e) => { editTurn = e.target.value; checkEdit(); } }, option('w', 'side.red'), option('b', 'side.black')),
      el('button', { id: 'xq-edit-clear', onclick: () => { editBoard = {}; checkEdit(); }, i18n: 'editor.clear' })),
    el('div', { class: 'muted small', i18n: 'editor.help' }),
    el('div', { id: 'xq-edit-error' }));
  $('#xq-edit-turn').value = editTurn;
}

/// The editor's side-to-move menu after a rebuild.
function syncEditorState() {
  $('#xq-edit-turn').value = editTurn;
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
  $('#xq-fen').value = fen;
  const box = $('#xq-edit-error');
  try {
    const a = await api(`/api/xiangqi?fen=${encodeURIComponent(fen)}&rules=${encodeURIComponent(rules())}`);
    if (id !== checkId) return;
    box.replaceChildren(el('div', { class: positionResult(a, fen).cls, id: 'xq-edit-ok' }, t('editor.legal', positionResult(a, fen).text)));
  } catch (e) {
    if (id !== checkId) return;
    box.replaceChildren(el('div', { class: 'error', id: 'xq-edit-error-text' }, e.message));
  }
}

