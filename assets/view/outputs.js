// Outputs side by side: every task of an iteration in a virtualised table (only the rows in view are in the
// DOM, so 10,000 tasks cost what 40 do), filters, keyboard navigation (↑/↓ or j/k, Enter opens, n/p the
// next or previous task), and one task's prompt, baseline and candidate attempts with the judges' verdicts,
// evidence and the feedback form.
'use strict';
(() => {
  const { h, api, statusCell, problem, setMain, hrefRun } = window.whet;
  const ROW = 28;

  const matches = (r, f) => {
    const [id, cat, split, b, c] = r;
    const now = c || b;
    if (f.cat && cat !== f.cat) return false;
    if (f.split && split !== f.split) return false;
    if (f.q && !id.toLowerCase().includes(f.q)) return false;
    switch (f.status) {
      case 'failed': return now === 'fail';
      case 'fixed': return b === 'fail' && c === 'pass';
      case 'regressed': return b === 'pass' && c === 'fail';
      case 'errored': return b === 'error' || c === 'error';
      default: return true;
    }
  };

  function judgeList(a) {
    return h('ul', { class: 'judges' }, (a.judges || []).map((j) => h('li', {}, h('span', { class: j.passed ? 'pass' : 'fail' }, j.passed ? 'pass' : 'fail'), ` ${j.type}${j.expectation ? ` — ${j.expectation}` : ''}: ${j.reason}${j.error ? ` (error: ${j.error})` : ''}`)));
  }

  function feedbackForm(ctx, variant, existing) {
    let rating = existing ? existing.rating : null;
    const id = `fb-${variant}`;
    const note = h('span', { role: 'status', class: 'muted' }, existing ? `saved: ${existing.rating}${existing.split !== 'train' ? ' (held out: kept and exported, never given to the generator)' : ''}` : '');
    const text = h('textarea', { id, 'aria-label': `comment on the ${variant} answer` });
    text.value = existing ? existing.comment : '';
    const btn = (v) => h('button', { type: 'button', 'aria-pressed': String(rating === v), 'data-rating': v, onclick: (ev) => {
      rating = v;
      for (const b of ev.target.parentElement.querySelectorAll('button[data-rating]')) b.setAttribute('aria-pressed', String(b.dataset.rating === v));
    } }, v === 'good' ? 'Good' : 'Bad');
    const save = h('button', { type: 'button', class: 'primary', onclick: async () => {
      if (!rating) return void (note.textContent = 'choose Good or Bad first');
      try {
        const f = await api('/api/feedback', { run: ctx.run, iteration: ctx.n, task: ctx.task, variant, attempt: null, rating, comment: text.value });
        note.textContent = `saved: ${f.rating}${f.split !== 'train' ? ' (held out: kept and exported, never given to the generator)' : ''}`;
      } catch (err) {
        note.textContent = `not saved: ${err.message}`;
      }
    } }, 'Save feedback');
    return h('div', { class: 'feedback', role: 'group', 'aria-label': `feedback on the ${variant} answer` }, btn('good'), btn('bad'), h('label', { for: id, class: 'muted' }, 'Comment'), text, save, note);
  }

  async function detail(ctx, pane) {
    const d = await api(`/api/runs/${encodeURIComponent(ctx.run)}/iterations/${ctx.n}/outputs/${encodeURIComponent(ctx.task)}`);
    const col = (v) => {
      const fb = d.feedback.find((f) => f.variant === v.variant);
      return h('section', { class: 'variant', 'aria-label': v.variant },
        h('h3', {}, d.without_skill ? (v.variant === 'baseline' ? 'With the skill' : 'Without the skill') : v.variant === 'baseline' ? 'Baseline' : `Candidate ${v.variant}`),
        v.note ? h('p', { class: 'muted' }, v.note) : null,
        v.attempts.map((a) => h('div', { class: 'attempt' },
          h('p', {}, `${a.round ? `round ${a.round}, ` : ''}attempt ${a.attempt}: `, statusCell(a.status), ` — ${a.reason}`),
          a.error ? problem(`${a.error.kind}: ${a.error.message}`) : null,
          judgeList(a),
          // The results log keeps the first 64 KiB of an output (src/state/results-log.ts): said, never shown as whole.
          a.output_truncated ? h('p', { class: 'cut' }, 'cut: the log keeps the first 64 KiB of this output; the judges saw it whole') : null,
          h('pre', { class: `output${a.output_truncated ? ' cut' : ''}`, tabindex: 0, 'aria-label': `${v.variant} output, ${a.round ? `round ${a.round}, ` : ''}attempt ${a.attempt}${a.output_truncated ? ' (cut at 64 KiB)' : ''}` }, a.output, a.output_truncated ? h('span', { class: 'cut-mark' }, '\n[… cut at 64 KiB]') : null))),
        feedbackForm(ctx, v.variant, fb));
    };
    pane.replaceChildren(
      h('h2', { id: 'task-title' }, `Task ${d.task_id}`),
      h('p', { class: 'muted' }, `category ${d.row[1] || '—'}, split ${d.row[2] || '—'}`),
      h('h3', {}, 'Prompt'),
      d.prompt !== undefined ? h('pre', { class: 'prompt', tabindex: 0, 'aria-label': 'prompt' }, d.system ? `[system] ${d.system}\n\n${d.prompt}` : d.prompt) : h('p', { class: 'muted' }, d.note || 'no prompt'),
      h('div', { class: 'side' }, d.variants.map(col)));
  }

  window.whetOutputs = async (run, n, task) => {
    const f = { status: '', cat: '', split: '', q: '' };
    let table = await api(`/api/runs/${encodeURIComponent(run)}/iterations/${n}/outputs`);
    let shown = [];
    let sel = -1;
    const count = h('p', { role: 'status', id: 'shown-count' });
    const inner = h('div', { style: 'position:relative' });
    const scroll = h('div', { class: 'vscroll', tabindex: 0, id: 'task-table', 'aria-label': 'tasks: ↑/↓ or j/k to move, Enter to open' },
      h('div', { class: 'vrow head', 'aria-hidden': 'true' }, h('span', {}, 'task'), h('span', {}, 'category'), h('span', {}, 'split'), h('span', {}, table.without_skill ? 'without skill' : 'baseline'), h('span', {}, table.without_skill ? 'with skill' : 'candidate')), inner);
    const pane = h('div', { class: 'detail', 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Choose a task (click, or ↑/↓ then Enter).'));

    const drawRows = () => {
      const top = Math.max(0, Math.floor(scroll.scrollTop / ROW) - 5);
      const end = Math.min(shown.length, top + Math.ceil(scroll.clientHeight / ROW) + 10);
      inner.style.height = `${shown.length * ROW}px`;
      const nodes = [];
      for (let i = top; i < end; i++) {
        const r = table.rows[shown[i]];
        nodes.push(h('div', { class: `vrow${i === sel ? ' sel' : ''}`, style: `position:absolute;left:0;right:0;top:${i * ROW}px`, 'data-task': r[0], onclick: () => open(i) },
          h('a', { href: `${hrefRun(run)}/outputs/${n}/${encodeURIComponent(r[0])}`, tabindex: -1, onclick: (e) => (e.preventDefault(), open(i)) }, r[0]), h('span', {}, r[1]), h('span', {}, r[2]), statusCell(r[3]), statusCell(r[4])));
      }
      inner.replaceChildren(...nodes);
    };
    const apply = () => {
      shown = [];
      table.rows.forEach((r, i) => matches(r, f) && shown.push(i));
      count.textContent = `${shown.length} of ${table.rows.length} tasks`;
      sel = Math.min(sel, shown.length - 1);
      drawRows();
    };
    const select = (i) => {
      sel = Math.max(0, Math.min(shown.length - 1, i));
      if (sel * ROW < scroll.scrollTop) scroll.scrollTop = sel * ROW;
      else if ((sel + 1) * ROW > scroll.scrollTop + scroll.clientHeight - ROW) scroll.scrollTop = (sel + 2) * ROW - scroll.clientHeight;
      drawRows();
    };
    const open = async (i) => {
      select(i);
      const r = table.rows[shown[sel]];
      if (!r) return;
      history.replaceState(null, '', `${hrefRun(run)}/outputs/${n}/${encodeURIComponent(r[0])}`);
      try {
        await detail({ run, n, task: r[0] }, pane);
      } catch (err) {
        pane.replaceChildren(problem(err.message));
      }
    };
    scroll.addEventListener('scroll', drawRows);
    scroll.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown' || e.key === 'j') select(sel + 1);
      else if (e.key === 'ArrowUp' || e.key === 'k') select(sel - 1);
      else if (e.key === 'Enter') open(Math.max(sel, 0));
      else return;
      e.preventDefault();
    });
    document.onkeydown = (e) => {
      if (e.target.closest && e.target.closest('textarea, input, select, #task-table')) return;
      if (e.key === 'n') open(sel + 1);
      else if (e.key === 'p') open(sel - 1);
    };
    const cats = [...new Set(table.rows.map((r) => r[1]))].sort();
    const splits = [...new Set(table.rows.map((r) => r[2]).filter(Boolean))].sort();
    const select_ = (id, label, key, options) => h('label', { for: id }, label, h('select', { id, onchange: (e) => ((f[key] = e.target.value), apply()) }, options.map(([v, t]) => h('option', { value: v }, t))));
    setMain(
      h('h1', {}, `Outputs — iteration ${n}`),
      h('p', {}, h('a', { href: hrefRun(run) }, `run ${run}`), table.candidate ? ` — baseline beside candidate ${table.candidate}` : table.without_skill ? ' — the skill beside the same suite with no skill at all (--without-skill): fixed = passes only with the skill, regressed = only without it' : ' — baseline only (no candidate was evaluated)', ' · ', h('a', { href: `/api/feedback/export?run=${encodeURIComponent(run)}&session=${encodeURIComponent(window.whet.TOKEN)}`, download: 'feedback.json' }, 'export feedback.json')),
      table.error ? problem(table.error) : null,
      h('div', { class: 'filters', role: 'search' },
        select_('f-status', 'Status', 'status', [['', 'all'], ['failed', 'failed'], ['fixed', 'fixed'], ['regressed', 'regressed'], ['errored', 'errored']]),
        select_('f-cat', 'Category', 'cat', [['', 'all'], ...cats.map((c) => [c, c])]),
        select_('f-split', 'Split', 'split', [['', 'all'], ...splits.map((s) => [s, s])]),
        h('label', { for: 'f-q' }, 'Task id contains', h('input', { id: 'f-q', type: 'search', oninput: (e) => ((f.q = e.target.value.toLowerCase()), apply()) })),
        count),
      h('div', { class: 'outputs' }, scroll, pane));
    apply();
    if (task) {
      const i = shown.findIndex((k) => table.rows[k][0] === task);
      if (i >= 0) await open(i);
    }
    window.whetLive = async () => {
      table = await api(`/api/runs/${encodeURIComponent(run)}/iterations/${n}/outputs`);
      apply();
    };
  };
})();
