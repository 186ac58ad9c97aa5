// Xiangqi positions and moves as text: FEN read and written, a move played on a FEN, the
// colours swapped, WXF moves in Chinese, a game as a WXF file. No legality: the server judges.

export const FILES = 'abcdefghi';
const LETTERS = 'KABNRCPkabnrcp';

/// A FEN's board as a map square -> letter and the side to move (`w` or `b`), or null when
/// the text is not a FEN of a 9 x 10 board (the server says what is wrong with it).
export function parseFen(fen) {
  const [rows, turn = 'w', ...rest] = fen.trim().split(/\s+/);
  if (!rows || !['w', 'b', 'r'].includes(turn) || rest.length > 4) return null;
  const ranks = rows.split('/');
  if (ranks.length !== 10) return null;
  const board = {};
  for (let i = 0; i < 10; i++) {
    let f = 0;
    for (const ch of ranks[i]) {
      if (/[1-9]/.test(ch)) f += Number(ch);
      else if (LETTERS.includes(ch)) {
        if (f > 8) return null;
        board[`${FILES[f]}${9 - i}`] = ch;
        f += 1;
      } else return null;
    }
    if (f !== 9) return null;
  }
  return { board, turn: turn === 'b' ? 'b' : 'w' };
}

/// The FEN of a board (square -> letter) with `turn` to move.
export function toFen(board, turn) {
  const rows = [];
  for (let r = 9; r >= 0; r--) {
    let row = '', empty = 0;
    for (let f = 0; f < 9; f++) {
      const p = board[`${FILES[f]}${r}`];
      if (p) { if (empty) row += empty; empty = 0; row += p; } else empty += 1;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return `${rows.join('/')} ${turn}`;
}

/// The FEN after the move `uci` (such as `h2e2`).
export function playUci(fen, uci) {
  const { board, turn } = parseFen(fen);
  const from = uci.slice(0, 2), to = uci.slice(2, 4);
  board[to] = board[from];
  delete board[from];
  return toFen(board, turn === 'w' ? 'b' : 'w');
}

/// The same position with the other side to move.
export function switchTurn(fen) {
  const { board, turn } = parseFen(fen);
  return toFen(board, turn === 'w' ? 'b' : 'w');
}

/// The same position with the colours swapped: every piece changes colour and goes to the
/// point the other side sees as its own (the board turned round), the other side to move.
/// Its value for the side to move is the same.
export function swapColours(fen) {
  const { board, turn } = parseFen(fen);
  const swapped = {};
  for (const [sq, p] of Object.entries(board)) {
    const f = FILES.indexOf(sq[0]), r = Number(sq[1]);
    const q = p === p.toUpperCase() ? p.toLowerCase() : p.toUpperCase();
    swapped[`${FILES[8 - f]}${9 - r}`] = q;
  }
  return toFen(swapped, turn === 'w' ? 'b' : 'w');
}

/// The side to move of a FEN: `w` (Red) or `b` (Black).
export function turnOf(fen) {
  return parseFen(fen)?.turn ?? 'w';
}

// Chinese notation (simplified characters, as most players write it): Red's files in Chinese
// numerals, Black's in Arabic digits.
const RED_PIECES = { K: '帅', A: '仕', E: '相', H: '马', R: '车', C: '炮', P: '兵' };
const BLACK_PIECES = { K: '将', A: '士', E: '象', H: '马', R: '车', C: '炮', P: '卒' };
const RED_NUMBERS = ['', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
const ACTIONS = { '+': '进', '-': '退', '.': '平' };

/// A WXF move (`C2.5`, `R+.3`) in Chinese notation (`炮二平五`, `前车平三`) for the side that
/// plays it (`red`); the WXF text itself for the rare forms of several Soldiers on a file.
export function chineseMove(wxf, red) {
  if (!wxf || wxf.length !== 4) return wxf;
  const pieces = red ? RED_PIECES : BLACK_PIECES;
  const number = (d) => (red ? RED_NUMBERS[Number(d)] : d);
  const [a, b, op, to] = wxf;
  if (!ACTIONS[op] || !/[1-9]/.test(to)) return wxf;
  let head;
  if (pieces[a] && /[1-9]/.test(b)) head = pieces[a] + number(b);
  else if (pieces[a] && (b === '+' || b === '-')) head = (b === '+' ? '前' : '后') + pieces[a];
  else return wxf;
  return head + ACTIONS[op] + number(to);
}

/// A game as a WXF file: headers, the start position, the moves numbered by move.
/// `moves` are WXF texts; `result` is `1-0`, `0-1`, `1/2-1/2` or `*`.
export function wxfFile({ start, moves, result, rules, date }) {
  const black = turnOf(start) === 'b';
  const lines = [
    'FORMAT          WXF',
    `GAME            endgame explorer, ${rules} rules`,
    'RED             ',
    'BLACK           ',
    `DATE            ${date}`,
    `RESULT          ${result}`,
    `FEN             ${start} - - 0 1`,
    'START{',
  ];
  const all = black ? ['...', ...moves] : moves;
  for (let i = 0; i < all.length; i += 2) {
    const n = String(i / 2 + 1).padStart(3);
    lines.push(`${n}. ${all[i].padEnd(10)}${all[i + 1] ?? ''}`.trimEnd());
  }
  lines.push('}END');
  return `${lines.join('\n')}\n`;
}
