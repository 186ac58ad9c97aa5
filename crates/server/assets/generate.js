// Generation on demand: a Xiangqi position whose material has no tables shows what generating
// them takes (tables, positions, time and memory on this machine, from
// `/api/xiangqi/estimate`) and a Generate button; then a progress bar with the time left
// (`POST /api/xiangqi/generate`, then `GET /api/xiangqi/jobs/ID` every POLL_MS), a Cancel
// button (`DELETE /api/xiangqi/jobs/ID?ticket=T` with the ticket the POST answered, kept in
// localStorage so that a reload or another tab of this browser can cancel too; a page
// following a job asked for elsewhere has no Cancel), and the analysis once the tables are
// there, without reloading the page. A material beyond the server's memory budget (or a server
// that does not generate) gets the commands for a bigger machine and for a cluster instead. A
// generation estimated at LONG_SECONDS or more (the masters' endgames: an hour or more) asks
// first, saying how long it takes, before anything starts. A job that waits says how many jobs
// are ahead of it; one with nothing before it says it is starting.
//
// It fills the analysis panel's `#xq-no-table` box through xiangqi.js's `hooks.noTable`,
// which calls it again at every redraw of the panel: what a material's generation has reached
// is kept here, per material and rule set, and drawn again each time.
import { hooks, RULES } from './xiangqi.js';
import { el, api, pageFetch, copyText, flash } from './ui.js';
import { t } from './i18n.js';

const POLL_MS = 400;
/// A generation estimated at this many seconds or more is confirmed before it starts.
export const LONG_SECONDS = 600;

/// Per `rules material`: { key, query, material, rules, phase, estimate, status, error, job, cancelling }.
/// phase: estimating | ready | confirming | starting | following | done | error.
const entries = new Map();
/// The box showing an entry now, and the page's reload for it.
let shown = null;
/// The keys of generations that just finished (the page asks for the analysis again): a key
/// that comes back here means the answer is still missing, and no loop of reloads follows.
const finished = new Set();

const enc = encodeURIComponent;

/// The tickets this browser was given, by job (localStorage: a reload or another tab can
/// cancel what this browser asked for).
const TICKETS = 'endgame.jobTickets';
function tickets() {
  try { return JSON.parse(localStorage.getItem(TICKETS) ?? '{}') ?? {}; } catch { return {}; }
}
function keepTicket(job, ticket) {
  const all = tickets();
  if (ticket) all[job] = ticket; else delete all[job];
  try { localStorage.setItem(TICKETS, JSON.stringify(all)); } catch { /* this tab only */ }
}
const rulesName = (rules) => t(RULES.find((r) => r.value === rules)?.key ?? rules);

hooks.noTable.push((box, { material, rules, fen, error, reload }) => {
  const key = `${rules} ${material ?? fen}`;
  let entry = entries.get(key);
  // A new answer of the server (not a redraw of the same one): the estimate is asked again.
  const fresh = !entry || entry.answer !== error;
  if (!entry) {
    entry = {
      key,
      query: `${material ? `material=${enc(material)}` : `fen=${enc(fen)}`}&rules=${enc(rules)}`,
      material,
      rules,
      phase: 'estimating',
      afterDone: finished.delete(key),
    };
    entries.set(key, entry);
  }
  entry.answer = error;
  shown = { box, entry, reload };
  // The server's "not generated: run this command" message: this box says it, and more.
  box.parentElement?.querySelector('#xq-error-text')?.setAttribute('hidden', '');
  // Coming back to a material: its estimate again (another job may have made some tables).
  if (fresh && ['estimating', 'ready', 'confirming', 'error'].includes(entry.phase)) refresh(entry);
  paint(entry, true);
});

/// Whether `entry` is the one in the panel now (the panel may show another position since).
function showing(entry) {
  return shown?.entry === entry && shown.box.isConnected && shown.box.querySelector('#xq-gen')?.dataset.key === entry.key;
}

/// Asks what the material still needs; follows the job generating it, if any.
async function refresh(entry) {
  const asked = (entry.asked = (entry.asked ?? 0) + 1);
  let e;
  try {
    e = await api(`/api/xiangqi/estimate?${entry.query}`);
  } catch (err) {
    if (asked !== entry.asked || entry.phase === 'following' || entry.phase === 'starting') return;
    entry.phase = 'error';
    entry.error = err.message;
    paint(entry);
    return;
  }
  if (asked !== entry.asked || entry.phase === 'following' || entry.phase === 'starting') return;
  entry.estimate = e;
  entry.material = e.material;
  if (e.generated && entry.afterDone) {
    entry.phase = 'error';
    entry.error = t('gen.stillMissing', e.material);
    paint(entry);
  } else if (e.generated) {
    finish(entry);
  } else if (e.job !== null && e.job !== undefined) {
    // Queued or running already (another tab, another person, or before this page loaded): a
    // job waiting is said at once, with the jobs ahead of it.
    const waiting = ['starting', 'queued'].includes(e.state) ? { state: e.state, ahead: e.ahead ?? 0 } : null;
    follow(entry, e.job, waiting);
  } else {
    // A confirmation being asked stays (the estimate under it is the new one).
    if (entry.phase !== 'confirming') entry.phase = 'ready';
    paint(entry);
  }
}

/// The Generate button: a long generation is confirmed first (the time it takes, said before
/// it starts), any other starts at once.
function generateClicked(entry) {
  if ((entry.estimate?.seconds ?? 0) >= LONG_SECONDS) {
    entry.phase = 'confirming';
    paint(entry);
  } else {
    start(entry);
  }
}

/// Starts the generation.
async function start(entry) {
  entry.phase = 'starting';
  entry.note = null;
  paint(entry);
  let answer;
  try {
    answer = await api(`/api/xiangqi/generate?${entry.query}`, '');
  } catch (err) {
    if (err.status === 413 && err.body) {
      // Over the budget: the answer is the estimate, which says so.
      entry.estimate = { ...err.body, fits: false };
      entry.phase = 'ready';
    } else {
      entry.phase = 'error';
      entry.error = err.message;
    }
    paint(entry);
    return;
  }
  if (answer.state === 'done') {
    finish(entry);
  } else {
    if (answer.ticket) keepTicket(answer.job, answer.ticket);
    follow(entry, answer.job, answer);
  }
}

/// Follows a job to its end, drawing its progress.
async function follow(entry, job, status) {
  entry.phase = 'following';
  entry.job = job;
  entry.ticket = tickets()[job] ?? null;
  entry.status = status;
  entry.cancelling = false;
  entry.error = null;
  paint(entry);
  if (entry.polling) return;
  entry.polling = true;
  try {
    while (entry.phase === 'following' && !['done', 'failed', 'cancelled'].includes(entry.status?.state)) {
      await new Promise((resolve) => setTimeout(resolve, entry.status ? POLL_MS : 0));
      try {
        entry.status = await api(`/api/xiangqi/jobs/${entry.job}`);
      } catch (err) {
        // 404: the server forgot the job (it restarted): ask for the material again.
        if (err.status === 404) keepTicket(entry.job, null);
        entry.phase = err.status === 404 ? 'estimating' : 'error';
        entry.error = err.message;
        paint(entry);
        if (err.status === 404) refresh(entry);
        return;
      }
      paint(entry);
    }
  } finally {
    entry.polling = false;
  }
  if (entry.phase !== 'following') return;
  const s = entry.status;
  keepTicket(entry.job, null);
  if (s.state === 'done') {
    finish(entry);
  } else {
    // Cancelled or failed: the finished tables stay; the estimate counts what is left.
    entry.note = s.state === 'cancelled' ? { key: 'gen.cancelled' } : { key: 'gen.failed', args: [s.error ?? ''] };
    entry.phase = 'estimating';
    refresh(entry);
  }
}

/// The Cancel button: withdraws this browser's request; the job stops unless another request
/// still holds it (then it goes on, and this page follows it without Cancel).
async function cancel(entry) {
  entry.cancelling = true;
  paint(entry);
  try {
    const { res, status } = await pageFetch(`/api/xiangqi/jobs/${entry.job}?ticket=${enc(entry.ticket ?? '')}`, { method: 'DELETE' });
    const answer = await res.json().catch(() => ({}));
    if (status >= 400 && status !== 404) throw new Error(answer.error ?? t('error.http', status, status === res.status ? res.statusText : ''));
    keepTicket(entry.job, null);
    entry.ticket = null;
    if (answer.others > 0) {
      entry.cancelling = false;
      entry.note = { key: 'gen.stillWanted' };
      paint(entry);
    }
  } catch (err) {
    entry.cancelling = false;
    entry.error = err.message === 'Failed to fetch' ? t('error.network') : err.message;
    paint(entry);
  }
  // The job's next state (cancelled) comes through follow().
}

/// The tables are there: the analysis, in place of this box.
function finish(entry) {
  for (const f of hooks.generated ?? []) f(entry.material, entry.rules);
  entry.phase = 'done';
  paint(entry);
  entries.delete(entry.key);
  if (showing(entry)) {
    finished.add(entry.key);
    shown.reload();
  }
}

/// Draws `entry` into the panel's box, if the panel still shows it (or `force`: the panel was
/// just drawn for it).
function paint(entry, force = false) {
  if (!shown || shown.entry !== entry || !shown.box.isConnected) return;
  if (!force && !showing(entry)) return;
  const box = shown.box;
  const m = entry.material ?? '';
  const parts = [el('div', { class: 'gen-title' }, t('gen.missing', m, rulesName(entry.rules)))];
  if (entry.note) parts.push(el('div', { class: 'notice', id: 'xq-gen-note' }, t(entry.note.key, ...(entry.note.args ?? []))));
  const e = entry.estimate;
  switch (entry.phase) {
    case 'estimating':
      if (!e) {
        parts.push(el('div', { class: 'muted', id: 'xq-gen-text' }, t('gen.estimating', m)));
        break;
      }
    // An estimate being refreshed: the last one meanwhile.
    // falls through
    case 'ready':
    case 'confirming':
    case 'starting':
      parts.push(...offer(entry, e));
      break;
    case 'following':
      parts.push(...progress(entry));
      break;
    case 'done':
      parts.push(el('div', { class: 'muted', id: 'xq-gen-text' }, t('gen.done', m)));
      break;
    default:
      parts.push(
        el('div', { class: 'error', id: 'xq-gen-error' }, entry.error ?? ''),
        el('div', { class: 'row' }, el('button', { id: 'xq-gen-retry', onclick: () => { Object.assign(entry, { phase: 'estimating', error: null, afterDone: false }); paint(entry); refresh(entry); }, i18n: 'gen.retry' })),
      );
  }
  const next = el('div', { id: 'xq-gen', class: 'gen', 'data-key': entry.key, 'data-phase': entry.phase }, ...parts);
  const old = box.querySelector('#xq-gen');
  // Redrawn in place: a button being clicked while the progress changes stays the same button.
  if (old && !force) morph(old, next);
  else box.replaceChildren(next);
}

/// Makes `old` look like `next`, keeping every element whose tag, id and number of children
/// are the same (with its listeners: the same entry's), replacing the others.
function morph(old, next) {
  if (old.nodeName !== next.nodeName || old.id !== next.id || old.childNodes.length !== next.childNodes.length) {
    old.replaceWith(next);
    return;
  }
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.nodeValue !== next.nodeValue) old.nodeValue = next.nodeValue;
    return;
  }
  for (const a of [...old.attributes]) if (!next.hasAttribute(a.name)) old.removeAttribute(a.name);
  for (const a of [...next.attributes]) if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  const kids = [...next.childNodes];
  [...old.childNodes].forEach((c, i) => morph(c, kids[i]));
}

/// The estimate and the Generate button, or why not and the commands for a terminal.
function offer(entry, e) {
  const time = t('gen.time', e.seconds), memory = t('gen.bytes', e.memory_bytes);
  const line = el('div', { id: 'xq-gen-text' }, t('gen.estimate', e.material, e.tables, t('gen.count', e.positions), time, memory));
  if (!e.generate) return [line, el('div', { class: 'notice', id: 'xq-gen-refused' }, t('gen.off')), command(e.command)];
  // Under a ban the generation runs with less memory than the fastest (its predecessor lists in
  // part or none), slower; it is refused only below the least.
  const least = e.least_memory_bytes ?? e.memory_bytes;
  if (!e.fits) {
    return [
      line,
      el('div', { class: 'notice', id: 'xq-gen-refused' }, t('gen.tooBig', e.material, t('gen.bytes', least), t('gen.bytes', e.budget_bytes ?? 0))),
      el('div', { class: 'muted small' }, t('gen.bigger')), command(e.command),
      el('div', { class: 'muted small' }, t('gen.cluster', memory)), command(e.cluster_command),
    ];
  }
  const slower = (e.budget_bytes ?? Infinity) < e.memory_bytes
    ? [el('div', { class: 'muted small', id: 'xq-gen-slower' }, t('gen.slower', t('gen.bytes', e.budget_bytes), memory))]
    : [];
  if (entry.phase === 'confirming') {
    return [line, ...slower,
      el('div', { class: 'notice', id: 'xq-gen-confirm-text' }, t('gen.long', e.material, time)),
      el('div', { class: 'row' },
        el('button', { id: 'xq-gen-confirm', class: 'primary', onclick: () => start(entry) }, t('gen.start', time)),
        el('button', { id: 'xq-gen-back', onclick: () => { entry.phase = 'ready'; paint(entry); }, i18n: 'gen.notNow' }))];
  }
  return [line, ...slower, el('div', { class: 'row' },
    el('button', { id: 'xq-generate', class: 'primary', disabled: entry.phase !== 'ready', onclick: () => generateClicked(entry), i18n: 'gen.generate' }))];
}

/// A command to copy into a terminal.
function command(text) {
  return el('div', { class: 'row gen-command' }, el('code', {}, text),
    el('button', { class: 'small', onclick: async (ev) => { const b = ev.currentTarget; flash(b, (await copyText(text)) ? 'xq.copied' : 'xq.copyFailed'); }, i18n: 'gen.copy' }));
}

/// The progress bar, the time left and the Cancel button.
function progress(entry) {
  const s = entry.status;
  const out = [];
  if (!s || s.state === 'queued' || s.state === 'starting') {
    // Behind other jobs: how many; with nothing before it: starting.
    const waiting = s?.state === 'queued' && s.ahead > 0;
    out.push(el('div', { class: 'muted', id: 'xq-gen-text' }, waiting ? t('gen.queued', s.ahead) : t('gen.starting')));
    out.push(el('progress', { id: 'xq-gen-bar', max: 1 }));
  } else {
    const total = Math.max(1, s.positions_total);
    const fraction = Math.min(1, s.positions_done / total);
    out.push(el('div', { id: 'xq-gen-text' }, t('gen.progress', s.materials_done, s.materials_total, s.current ?? s.material)));
    out.push(el('div', { class: 'row gen-bar' },
      el('progress', { id: 'xq-gen-bar', max: 1000, value: Math.round(fraction * 1000) }),
      el('span', { id: 'xq-gen-percent' }, `${Math.floor(fraction * 100)} %`)));
    const left = s.state === 'running' && s.positions_per_second > 0
      ? t('gen.left', t('gen.time', s.seconds_left), t('gen.count', Math.round(s.positions_per_second)))
      : t('gen.starting');
    out.push(el('div', { class: 'muted', id: 'xq-gen-left' }, left));
  }
  if (entry.error) out.push(el('div', { class: 'error', id: 'xq-gen-error' }, entry.error));
  // Only the browser that asked for the job may cancel it.
  if (entry.ticket) {
    out.push(el('div', { class: 'row' },
      el('button', { id: 'xq-gen-cancel', disabled: !!entry.cancelling, onclick: () => cancel(entry), i18n: entry.cancelling ? 'gen.cancelling' : 'gen.cancel' })));
  }
  return out;
}
