// The Xiangqi examples menu: the catalogue's endgames (`/api/examples`, `xiangqi`: [{ english,
// chinese, material, fen, group }]) in two groups, the classic ones and the masters' endgames
// (three attacking pieces against a full defence: tables of billions of positions), each named
// in the interface's language. A masters' endgame also says what its tables take on this server
// before anyone opens it: "about 1.2 h to generate" (the server's estimate, under the rules
// chosen), or "generated" once every table is there.
import { el, api, examples } from './ui.js';
import { t, getLang } from './i18n.js';

/// The groups of the menu: the catalogue's `group` and the key of the group's name.
const GROUPS = [['classic', 'xq.classic'], ['masters', 'xq.masters']];

let menu = null;
let currentRules = () => 'standard';
/// Counts the rounds of estimates asked, so that an older round's late answers are dropped.
let round = 0;

/// Fills `select` (after its first option, the menu's title) with the examples; `rules()` is
/// the rule set the estimates are asked under.
export function fillExamples(select, rules) {
  menu = select;
  currentRules = rules;
  examples().then((ex) => {
    const list = Array.isArray(ex.xiangqi) ? ex.xiangqi : [];
    for (const [group, key] of GROUPS) {
      const items = list.filter((x) => (x.group ?? 'classic') === group);
      if (!items.length) continue;
      menu.append(el('optgroup', { 'data-key': key, 'data-group': group },
        ...items.map((x) => el('option', { value: x.fen, 'data-material': x.material, 'data-en': `${x.material}: ${x.english}`, 'data-zh': `${x.material}：${x.chinese ?? x.english}` }))));
    }
    showExampleNames();
    estimateExamples();
  }).catch(() => {});
}

/// The menu's names in the interface's language, with each masters' endgame's note.
export function showExampleNames() {
  if (!menu) return;
  menu.querySelectorAll('optgroup[data-key]').forEach((g) => { g.label = t(g.dataset.key); });
  menu.querySelectorAll('option[data-en]').forEach((o) => {
    const name = getLang() === 'zh' ? o.dataset.zh : o.dataset.en;
    const note = o.dataset.generated === 'true'
      ? t('xq.exampleGenerated')
      : o.dataset.seconds ? t('xq.exampleTime', t('gen.time', Number(o.dataset.seconds))) : null;
    o.textContent = note ? `${name} · ${note}` : name;
  });
}

/// Asks the server what each masters' endgame still needs under the rules chosen, and says it
/// in the menu (after a change of rules, and after a generation finished).
export async function estimateExamples() {
  if (!menu) return;
  const mine = ++round;
  const rules = currentRules();
  const options = [...menu.querySelectorAll('optgroup[data-group="masters"] option[data-material]')];
  await Promise.all(options.map(async (o) => {
    let e = null;
    try {
      e = await api(`/api/xiangqi/estimate?material=${encodeURIComponent(o.dataset.material)}&rules=${encodeURIComponent(rules)}`);
    } catch { /* no note */ }
    if (mine !== round) return;
    if (e) {
      o.dataset.generated = String(!!e.generated);
      o.dataset.seconds = String(e.seconds ?? '');
    } else {
      delete o.dataset.generated;
      delete o.dataset.seconds;
    }
  }));
  if (mine === round) showExampleNames();
}
