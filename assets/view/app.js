// whet view's page: a hash router over the server's JSON (src/view/server.ts), drawn with DOM calls only —
// every text from the state directory goes in as textContent, never as markup. Plain script, no build step,
// nothing fetched from anywhere but this server. pages.js draws a run and the review queue; outputs.js the
// outputs table.
'use strict';
const TOKEN = document.querySelector('meta[name="whet-token"]').content;
const REVIEW = document.querySelector('meta[name="whet-review"]').content === 'on';

/** An element with attributes (on* as listeners) and children (strings become text). */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    // Through the CSSOM: the page's CSP (style-src 'self') refuses style attributes, not style properties.
    else if (k === 'style') el.style.cssText = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

async function api(path, body) {
  const init = body === undefined ? { headers: { 'x-whet-token': TOKEN } } : { method: 'POST', headers: { 'x-whet-token': TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}

const { f4, signed, rate } = window.whetFormat;
const ago = (ms) => (ms < 60e3 ? `${Math.round(ms / 1e3)} s` : ms < 3600e3 ? `${Math.round(ms / 60e3)} min` : `${(ms / 3600e3).toFixed(1)} h`);
const statusCell = (s) => h('span', { class: s === 'pass' ? 'pass' : s === 'fail' ? 'fail' : s === 'error' ? 'error' : 'muted' }, s || '—');
const problem = (msg) => h('p', { class: 'problem', role: 'alert' }, msg);
const hrefRun = (id) => `#/run/${encodeURIComponent(id)}`;

function setMain(...nodes) {
  const main = document.getElementById('main');
  // null and false stand for "nothing here" in the page code: never drawn as text.
  main.replaceChildren(...nodes.flat().filter((n) => n !== null && n !== undefined && n !== false));
}

function progressOf(p) {
  if (!p) return null;
  const share = p.total ? p.judged / p.total : 0;
  return h('span', {}, h('span', { class: 'bar', role: 'progressbar', 'aria-label': `iteration ${p.iteration} ${p.variant}`, 'aria-valuemin': 0, 'aria-valuemax': p.total, 'aria-valuenow': p.judged }, h('span', { style: `width:${(share * 100).toFixed(1)}%` })), ` iteration ${p.iteration}, ${p.variant}: ${p.judged}/${p.total} tasks judged${p.left_ms !== null ? `, about ${ago(p.left_ms)} left` : ''}`);
}

/** A run's engine, on every run: the mock in its own colour and words, so it never looks like a model. */
function engineBadge(e) {
  if (!e) return h('span', { class: 'engine engine-unknown' }, 'engine not recorded yet');
  return e.mock ? h('span', { class: 'engine engine-mock', title: 'the offline mock engine: its answers quote the skill; it is not a model' }, 'mock engine') : h('span', { class: 'engine' }, e.type);
}

/** A decision in words and colour (keep, reject, waits for review): the word and a symbol carry it, not the colour alone. */
const VERDICTS = { keep: 'v-keep', reject: 'v-reject', pending_review: 'v-pending' };
function verdictOf(text) {
  const m = /^(?:\d+:)?([a-z_]+)/.exec(text || '');
  return h('span', { class: `verdict ${VERDICTS[m && m[1]] || 'v-other'}` }, text);
}
function decisionsCell(list) {
  const out = [];
  list.forEach((d, i) => out.push(i ? ', ' : null, verdictOf(d)));
  return out;
}

/** The review queue's link in the navigation, with the count of runs that wait for a person. */
let navTimer = null;
async function updateNav(known) {
  const el = document.getElementById('review-count');
  if (!el) return;
  try {
    const p = known || (await api('/api/run-list?limit=0'));
    el.textContent = p.waiting_runs === null ? ' (counting…)' : p.waiting_runs ? ` (${p.waiting_runs} run${p.waiting_runs === 1 ? '' : 's'} wait${p.waiting_runs === 1 ? 's' : ''})` : '';
    el.parentElement.classList.toggle('waiting', !!p.waiting_runs);
    // Still being counted (the viewer reads every run once when it starts): asked again in a second.
    if (p.waiting_runs === null && !navTimer) navTimer = setTimeout(() => ((navTimer = null), updateNav()), 1000);
  } catch {
    el.textContent = '';
  }
}

const PAGE = 50;

/** The first page of runs, sent with the page itself (src/view/server.ts): drawn without a request, once. */
let firstRuns = (() => {
  try {
    return JSON.parse(document.getElementById('first-runs').textContent);
  } catch {
    return null;
  }
})();

async function runsPage(offset, first) {
  const p = offset === 0 && first ? first : await api(`/api/run-list?offset=${offset}&limit=${PAGE}`);
  updateNav(p);
  const rows = p.rows.map((r) =>
    h('tr', { 'data-run': r.run_id },
      h('td', {}, h('a', { href: hrefRun(r.run_id) }, r.run_id)),
      h('td', {}, engineBadge(r.engine)),
      h('td', {}, r.mode),
      h('td', {}, h('span', { class: 'run-status' }, r.status), r.waiting ? h('div', {}, h('a', { href: '#/review', class: 'waits' }, `${r.waiting} candidate${r.waiting === 1 ? '' : 's'} wait${r.waiting === 1 ? 's' : ''} for you`)) : null, r.progress ? h('div', {}, progressOf(r.progress)) : null, r.error ? problem(r.error) : null, ...(r.problems || []).map((x) => problem(`${x.file}: ${x.message}`))),
      h('td', {}, r.iteration ?? '—', r.last_stage ? h('div', { class: 'muted' }, `last: ${r.last_stage}`) : null),
      h('td', {}, r.decisions.length ? decisionsCell(r.decisions) : r.verdict ? verdictOf(r.verdict) : '—'),
      // The run's one count of calls (src/evaluation/call-count.ts): the sum, split by kind where it was kept.
      h('td', {}, r.totals.calls ? `${r.totals.calls.total} (engine ${r.totals.calls.engine} · judge ${r.totals.calls.judge} · generator ${r.totals.calls.generator})` : String(r.totals.engine_calls)),
      h('td', {}, r.totals.cost_usd ? `$${r.totals.cost_usd.toFixed(4)}` : '$0'),
      h('td', {}, r.updated_at ? `${ago(r.age_ms)} ago` : '—'),
    ),
  );
  const last = Math.min(p.total, offset + p.rows.length);
  const go = (o) => () => (location.hash = o ? `#/runs/${o}` : '#/');
  const pager = () => h('nav', { class: 'pager', 'aria-label': 'pages of runs' },
    h('button', { type: 'button', disabled: offset === 0, onclick: go(Math.max(0, offset - PAGE)) }, '← Newer'),
    h('span', { class: 'muted' }, `runs ${p.total ? offset + 1 : 0}–${last} of ${p.total}, newest first`),
    h('button', { type: 'button', disabled: offset + PAGE >= p.total, onclick: go(offset + PAGE) }, 'Older →'));
  setMain(
    h('h1', {}, 'Runs'),
    p.waiting_runs ? h('p', { class: 'needs-you' }, h('a', { href: '#/review' }, `${p.waiting_runs} run${p.waiting_runs === 1 ? '' : 's'} wait${p.waiting_runs === 1 ? 's' : ''} for your review`)) : null,
    p.total
      ? [h('table', { id: 'runs' }, h('caption', { class: 'muted' }, 'Every run in the state directory, newest first, 50 to a page; a running loop updates as it goes.'),
          h('thead', {}, h('tr', {}, ...['Run', 'Engine', 'Mode', 'Status', 'Iteration', 'Decisions', 'Calls', 'Cost', 'Updated'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, rows)), p.total > PAGE ? pager() : null]
      : h('p', {}, 'No runs yet in this state directory. Start one with ', h('code', {}, 'whet run'), '; it appears here as it starts.'),
  );
}

// Routes: #/ runs (#/runs/OFFSET: an older page), #/run/ID, #/run/ID/outputs/N[/TASK], #/review.
async function render() {
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  // The first page of runs sent with the page is current only for the page's first draw.
  const first = firstRuns;
  firstRuns = null;
  // The runs page counts what waits for review itself; every other page asks for the count.
  if (parts[0] === 'run' || parts[0] === 'review') updateNav();
  try {
    if (parts[0] === 'run' && parts[1] && parts[2] === 'outputs') await window.whetOutputs(parts[1], Number(parts[3]), parts.slice(4).join('/') || null);
    else if (parts[0] === 'run' && parts[1]) await window.whetRunPage(parts[1]);
    else if (parts[0] === 'review') await window.whetReviewPage();
    else if (parts[0] === 'runs' && /^\d+$/.test(parts[1] || '')) await runsPage(Number(parts[1]));
    else await runsPage(0, first);
  } catch (err) {
    setMain(h('h1', {}, 'Cannot show this page'), problem(err.message));
  }
}

let pending = null;
let last = 0;
/**
 * Redraws the page after a change, at most once a second: a loop writes several files at once and a
 * results log grows with every task, and each redraw asks the server to read the run again.
 */
function refresh() {
  if (pending) return;
  const wait = Math.max(150, 1000 - (Date.now() - last));
  pending = setTimeout(() => {
    pending = null;
    last = Date.now();
    (window.whetLive ? window.whetLive() : render()).catch?.(() => undefined);
    if (window.whetLive) updateNav();
  }, wait);
}

function connect() {
  const live = document.getElementById('live');
  const es = new EventSource(`/api/events?session=${encodeURIComponent(TOKEN)}`);
  es.onopen = () => (live.textContent = 'live');
  es.addEventListener('change', () => {
    live.textContent = `live · updated ${new Date().toLocaleTimeString()}`;
    refresh();
  });
  es.onerror = () => (live.textContent = 'reconnecting…');
}

window.whet = { h, api, f4, signed, rate, statusCell, problem, setMain, hrefRun, progressOf, engineBadge, verdictOf, updateNav, REVIEW, TOKEN };
window.addEventListener('hashchange', () => {
  window.whetLive = null;
  render();
});
window.addEventListener('DOMContentLoaded', () => {
  render();
  connect();
});
