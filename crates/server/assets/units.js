// Numbers as people read them, the one convention of every interface (docs/cli.md, Numbers):
// sizes in binary units with their names (`1.5 KiB`, `346 MiB`, `22.3 GiB`) to three
// significant digits, counts whole with their digits grouped in threes (`37,762,940,232`) in
// both languages. The same as the server's `endgame_core::units`, step for step (the same
// floating-point operations, rounding half away from zero on the value scaled by a power of
// ten, never `toFixed` or `toLocaleString`), so that a number reads alike in the page and in
// the server's messages; a browser test compares the two on many values.

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/// A string of digits grouped in threes from the right.
function group(digits) {
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}

/// A whole number (not negative) as its digits, without an exponent even beyond 1e21.
function digits(n) {
  return n < 1e21 ? String(n) : BigInt(n).toString();
}

/// `n` with its digits grouped in threes: `1,234,567`.
export function count(n) {
  return group(digits(Math.max(0, Math.round(Number(n) || 0))));
}

/// `value` (not negative) with at most `places` decimals, rounded half away from zero,
/// trailing zeros dropped, the whole part grouped.
function decimal(value, places) {
  let scaled = Math.round(value * 10 ** places);
  if (!Number.isFinite(scaled) || scaled < 0) scaled = 0;
  const scale = 10 ** places;
  const whole = Math.floor(scaled / scale), part = scaled % scale;
  let text = group(digits(whole));
  if (part > 0) text += `.${String(part).padStart(places, '0').replace(/0+$/, '')}`;
  return text;
}

/// A size in bytes in the largest binary unit that keeps it at 1 or more, to three
/// significant digits: `0 B`, `1023 B`, `1.5 KiB`, `346 MiB`, `22.3 GiB`.
export function bytes(n) {
  n = Math.max(0, Number(n) || 0);
  if (n < 1024) return `${Math.round(n)} B`;
  let unit = 0, value = n;
  while (value >= 1024 && unit + 1 < UNITS.length) {
    value /= 1024;
    unit += 1;
  }
  const places = value < 10 ? 2 : value < 100 ? 1 : 0;
  if (Math.round(value * 10 ** places) >= 1024 * 10 ** places && unit + 1 < UNITS.length) return `1 ${UNITS[unit + 1]}`;
  return `${decimal(value, places)} ${UNITS[unit]}`;
}

/// A count per second as a whole count: `3,214,775`.
export function rate(perSecond) {
  return decimal(Math.max(0, Number(perSecond) || 0), 0);
}

/// A time: `1 s` (anything below 1.5 s, none included), `40 s` below 2 minutes, `3 min` below
/// 2 hours, then `2.5 h`; `names` are the words of the three units (`['秒', '分钟', '小时']`).
export function duration(seconds, names = ['s', 'min', 'h']) {
  let s = Number(seconds);
  s = Number.isFinite(s) ? Math.max(0, s) : 0;
  if (s < 120) return `${decimal(Math.max(1, s), 0)} ${names[0]}`;
  if (s < 7200) return `${decimal(s / 60, 0)} ${names[1]}`;
  const hours = decimal(s / 3600, 1);
  return `${hours.includes('.') ? hours : `${hours}.0`} ${names[2]}`;
}
