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

const pct = (x) => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(1)}%`);
const f4 = (x) => (x === null || x === undefined ? '—' : Number(x).toFixed(4));
const signed = (x) => (x === null || x === undefined ? '—' : `${x >= 0 ? '+' : ''}${Number(x).toFixed(4)}`);
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

async function runsPage() {
  const runs = await api('/api/runs');
  const rows = runs
    .slice()
    .reverse()
    .map((r) =>
      h('tr', { 'data-run': r.run_id },
        h('td', {}, h('a', { href: hrefRun(r.run_id) }, r.run_id)),
        h('td', {}, r.mode),
        h('td', {}, h('span', { class: 'run-status' }, r.status), r.progress ? h('div', {}, progressOf(r.progress)) : null, r.error ? problem(r.error) : null, ...(r.problems || []).map((p) => problem(`${p.file}: ${p.message}`))),
        h('td', {}, r.iteration ?? '—', r.last_stage ? h('div', { class: 'muted' }, `last: ${r.last_stage}`) : null),
        h('td', {}, r.decisions.length ? r.decisions.join(', ') : r.verdict ?? '—'),
        // The run's one count of calls (src/evaluation/call-count.ts): the sum, split by kind where it was kept.
        h('td', {}, r.totals.calls ? `${r.totals.calls.total} (engine ${r.totals.calls.engine} · judge ${r.totals.calls.judge} · generator ${r.totals.calls.generator})` : String(r.totals.engine_calls)),
        h('td', {}, r.totals.cost_usd ? `$${r.totals.cost_usd.toFixed(4)}` : '$0'),
        h('td', {}, r.updated_at ? `${ago(r.age_ms)} ago` : '—'),
      ),
    );
  setMain(
    h('h1', {}, 'Runs'),
    runs.length
      ? h('table', { id: 'runs' }, h('caption', { class: 'muted' }, 'Every run in the state directory, newest first; a running loop updates as it goes.'),
          h('thead', {}, h('tr', {}, ...['Run', 'Mode', 'Status', 'Iteration', 'Decisions', 'Calls', 'Cost', 'Updated'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, rows))
      : h('p', {}, 'No runs yet in this state directory. Start one with ', h('code', {}, 'whet run'), '; it appears here as it starts.'),
  );
}

// Routes: #/ runs, #/run/ID, #/run/ID/outputs/N[/TASK], #/review.
async function render() {
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  try {
    if (parts[0] === 'run' && parts[1] && parts[2] === 'outputs') await window.whetOutputs(parts[1], Number(parts[3]), parts.slice(4).join('/') || null);
    else if (parts[0] === 'run' && parts[1]) await window.whetRunPage(parts[1]);
    else if (parts[0] === 'review') await window.whetReviewPage();
    else await runsPage();
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

window.whet = { h, api, pct, f4, signed, statusCell, problem, setMain, hrefRun, progressOf, REVIEW, TOKEN };
window.addEventListener('hashchange', () => {
  window.whetLive = null;
  render();
});
window.addEventListener('DOMContentLoaded', () => {
  render();
  connect();
});
