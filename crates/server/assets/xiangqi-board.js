// The Xiangqi board as SVG: lines, palaces, river text, coordinates, pieces (characters drawn
// from glyphs.js, or WXF letters), the last move, a move's targets and the best-move arrow.
import { svgEl } from './ui.js';
import { GLYPHS } from './glyphs.js';
import { FILES } from './xiangqi-notation.js';

export const CHARS = {
  K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
  k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒',
};
// WXF letters (Elephant E, Horse H).
const LETTERS = { K: 'K', A: 'A', B: 'E', N: 'H', R: 'R', C: 'C', P: 'P' };
export const RED = '#b3261e', BLACK = '#222';
const CELL = 54, PAD = 40, WIDTH = PAD * 2 + 8 * CELL, HEIGHT = PAD * 2 + 9 * CELL;

/// A glyph of glyphs.js centred at (x, y), `size` pixels high.
function glyph(ch, x, y, size, fill) {
  const s = size / 1000;
  return svgEl('path', { d: GLYPHS[ch], fill, transform: `translate(${x - size / 2} ${y - size / 2}) scale(${s})`, 'pointer-events': 'none', class: 'glyph', 'data-char': ch });
}

/// A piece's face at (x, y): the disc, the inner ring, the character (or the WXF letter).
export function pieceFace(p, x, y, { letters = false, ring = null } = {}) {
  const red = p === p.toUpperCase();
  const ink = red ? RED : BLACK;
  const g = svgEl('g', {});
  g.append(svgEl('circle', { cx: x, cy: y, r: 23, fill: '#fbf3df', stroke: ring ?? ink, 'stroke-width': ring ? 4 : 2 }));
  g.append(svgEl('circle', { cx: x, cy: y, r: 19, fill: 'none', stroke: ink, 'stroke-width': 1 }));
  if (letters) {
    const letter = red ? LETTERS[p] : LETTERS[p.toUpperCase()].toLowerCase();
    g.append(svgEl('text', { x, y: y + 8, 'font-size': 22, 'font-weight': 700, fill: ink, 'text-anchor': 'middle', 'font-family': 'system-ui, sans-serif', 'pointer-events': 'none' }, letter));
  } else {
    g.append(glyph(CHARS[p], x, y, 30, ink));
  }
  return g;
}

/// A small SVG of one piece, for buttons.
export function pieceIcon(p, letters) {
  const svg = svgEl('svg', { viewBox: '0 0 50 50', width: 30, height: 30, class: 'piece-icon' });
  svg.append(pieceFace(p, 25, 25, { letters }));
  return svg;
}

/// Draws the board into `container`.
/// - `board`: square -> FEN letter; `flip`: Black at the bottom; `letters`: WXF letters;
/// - `selected`: a square; `targets`: square -> { colour, title }; `last`: a move (`h2e2`);
/// - `arrow`: { uci, colour }; `onPoint(square)`: a click on a point or a piece.
export function drawBoard(container, { board, flip, letters, selected, targets, last, arrow, onPoint }) {
  const point = (sq) => {
    const f = FILES.indexOf(sq[0]), r = Number(sq[1]);
    const x = flip ? 8 - f : f, y = flip ? r : 9 - r;
    return [PAD + x * CELL, PAD + y * CELL];
  };
  const svg = svgEl('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, id: 'xq-svg', class: flip ? 'flipped' : '' });
  svg.append(svgEl('rect', { x: 4, y: 4, width: WIDTH - 8, height: HEIGHT - 8, rx: 10, fill: '#e8c98c', stroke: '#b08d4f', 'stroke-width': 2 }));
  const line = (a, b) => {
    const [x1, y1] = point(a), [x2, y2] = point(b);
    svg.append(svgEl('line', { x1, y1, x2, y2, stroke: '#5a3d1a', 'stroke-width': 1.4 }));
  };
  for (let r = 0; r <= 9; r++) line(`a${r}`, `i${r}`);
  for (let f = 0; f < 9; f++) {
    if (f === 0 || f === 8) line(`${FILES[f]}0`, `${FILES[f]}9`);
    else { line(`${FILES[f]}0`, `${FILES[f]}4`); line(`${FILES[f]}5`, `${FILES[f]}9`); }
  }
  line('d0', 'f2'); line('f0', 'd2'); line('d9', 'f7'); line('f9', 'd7');
  // The river text reads left to right on the screen, whichever side is at the bottom.
  const riverY = PAD + 4.5 * CELL;
  const river = svgEl('g', { class: 'river' });
  [['楚', 1.5], ['河', 2.5], ['漢', 5.5], ['界', 6.5]].forEach(([ch, at]) => river.append(glyph(ch, PAD + at * CELL, riverY, 30, '#7a5527')));
  svg.append(river);
  // Coordinates (ICCS) along the bottom and left edges of the screen.
  for (let f = 0; f < 9; f++) {
    const [x] = point(`${FILES[f]}0`);
    svg.append(svgEl('text', { x, y: HEIGHT - 10, 'font-size': 12, fill: '#7a5527', 'text-anchor': 'middle', class: 'coord' }, FILES[f]));
  }
  for (let r = 0; r <= 9; r++) {
    const [, y] = point(`a${r}`);
    svg.append(svgEl('text', { x: 16, y: y + 4, 'font-size': 12, fill: '#7a5527', 'text-anchor': 'middle', class: 'coord' }, String(r)));
  }
  if (last) {
    for (const sq of [last.slice(0, 2), last.slice(2, 4)]) {
      const [x, y] = point(sq);
      svg.append(svgEl('rect', { x: x - 25, y: y - 25, width: 50, height: 50, fill: 'none', stroke: '#2d6cdf', 'stroke-width': 2, 'stroke-dasharray': '5 4', rx: 6, class: 'last' }));
    }
  }
  // Click targets on every point.
  for (let f = 0; f < 9; f++) for (let r = 0; r <= 9; r++) {
    const sq = `${FILES[f]}${r}`;
    const [x, y] = point(sq);
    svg.append(svgEl('rect', { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, fill: 'transparent', class: 'point', 'data-sq': sq, onclick: () => onPoint(sq) }));
  }
  for (const [sq, p] of Object.entries(board)) {
    const [x, y] = point(sq);
    const g = pieceFace(p, x, y, { letters, ring: sq === selected ? '#2d6cdf' : null });
    g.setAttribute('class', `piece ${p === p.toUpperCase() ? 'red' : 'black'}`);
    g.setAttribute('data-sq', sq);
    g.setAttribute('data-piece', p);
    g.style.cursor = 'pointer';
    g.addEventListener('click', () => onPoint(sq));
    svg.append(g);
  }
  if (arrow) svg.append(arrowShape(point(arrow.uci.slice(0, 2)), point(arrow.uci.slice(2, 4)), arrow.colour, arrow.uci));
  for (const [sq, m] of targets) {
    const [x, y] = point(sq);
    svg.append(svgEl('circle', { cx: x, cy: y, r: board[sq] ? 26 : 9, fill: board[sq] ? 'none' : m.colour, stroke: m.colour, 'stroke-width': 3, opacity: 0.85, class: 'target', 'data-sq': sq, style: 'cursor:pointer', onclick: () => onPoint(sq) },
      svgEl('title', {}, m.title)));
  }
  container.replaceChildren(svg);
}

/// An arrow from point `a` to point `b` (the best move), over the pieces, not catching clicks.
function arrowShape([x1, y1], [x2, y2], colour, uci) {
  const len = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  const head = 18, half = 11, width = 4.5;
  const sx = x1 + ux * 12, sy = y1 + uy * 12;
  const bx = x2 - ux * head, by = y2 - uy * head;
  const nx = -uy, ny = ux;
  const d = [
    `M${sx + nx * width} ${sy + ny * width}`, `L${bx + nx * width} ${by + ny * width}`, `L${bx + nx * half} ${by + ny * half}`,
    `L${x2} ${y2}`, `L${bx - nx * half} ${by - ny * half}`, `L${bx - nx * width} ${by - ny * width}`, `L${sx - nx * width} ${sy - ny * width}`, 'Z',
  ].join(' ');
  return svgEl('path', { d, fill: colour, opacity: 0.7, 'pointer-events': 'none', class: 'arrow', 'data-uci': uci });
}
