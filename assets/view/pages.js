// A run, iteration by iteration (baseline, candidates with their diffs, the discriminator's scores and
// reasons, the evaluation with intervals per category and split, the paired comparison, the sequential
// plan and power, the gate's checks with the decision first), and the review queue.
'use strict';
(() => {
  const { h, api, f4, signed, rate, problem, setMain, hrefRun, progressOf, engineBadge, verdictOf, updateNav, REVIEW } = window.whet;

  const diffBlock = (text) =>
    h('pre', { class: 'diff', tabindex: 0, 'aria-label': 'unified diff' }, ...String(text || '').split('\n').map((l) => h('span', { class: l.startsWith('+') && !l.startsWith('+++') ? 'add' : l.startsWith('-') && !l.startsWith('---') ? 'del' : '' }, `${l}\n`)));
  // "0.5000 [0.19, 0.81]", as the CLI prints a rate (assets/view/format.js).
  const ci = (s) => rate(s);
  const section = (title, s, draw) => [h('h3', {}, title), s === undefined ? h('p', { class: 'muted' }, 'not written (this stage has not run in this iteration)') : s.error ? problem(s.error) : draw(s.data)];

  function ratesTable(caption, base, cand, key) {
    const names = [...new Set([...Object.keys((base && base[key]) || {}), ...Object.keys((cand && cand[key]) || {})])].sort();
    if (!names.length) return null;
    return h('table', {}, h('caption', { class: 'muted' }, caption),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, key === 'per_split' ? 'Split' : 'Category'), h('th', { scope: 'col' }, 'Baseline (95% interval)'), cand ? h('th', { scope: 'col' }, 'Candidate (95% interval)') : null)),
      h('tbody', {}, names.map((n) => h('tr', {}, h('th', { scope: 'row' }, n), h('td', {}, ci(base && base[key] && base[key][n])), cand ? h('td', {}, ci(cand[key] && cand[key][n])) : null))));
  }

  function baseline(d) {
    const e = d.evaluation || {};
    return h('div', {}, h('p', {}, `pass rate ${ci(e)}; ${e.passed ?? 0} passed of ${e.total_tasks ?? '?'}${e.cache && e.cache.hit ? ' (from the baseline cache)' : ''}`), ratesTable('Baseline by split', e, null, 'per_split'), ratesTable('Baseline by category', e, null, 'per_category'));
  }

  // `--without-skill`: the same suite with no skill, and the skill's own effect, worded as evaluate prints it
  // (src/measure/skill-effect.ts `skillEffectLine`).
  const pts = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;
  function withoutSkill(d) {
    const w = d.without_skill;
    if (!w) return null;
    const { effect, low, high, tasks } = w.effect || {};
    const size = effect === null || effect === undefined ? 'not measured (no task judged both ways)' : `${pts(effect)} points, ${low === null || high === null ? 'no interval (fewer than 2 tasks judged both ways)' : `95% CI [${pts(low)}, ${pts(high)}] points`}, over ${tasks} task(s)`;
    const p = w.paired || {};
    return h('div', { class: 'without-skill' }, h('h4', {}, 'With the skill against without it'),
      h('p', {}, `without the skill: pass rate ${ci(w.summary)}; ${w.summary ? w.summary.passed : 0} passed of ${w.summary ? w.summary.total_tasks : '?'}`),
      h('p', {}, `the skill's own effect: ${size}; ${p.fixed ?? 0} task(s) pass only with it, ${p.regressed ?? 0} only without (exact McNemar p = ${p.p_value ?? '—'})`));
  }

  /** Every candidate, folded but for the one the gate decided on (its diff is what the decision is about). */
  function candidates(d, ranking, decided) {
    const scored = new Map(((ranking && ranking.scored_candidates) || []).map((s) => [s.id, s]));
    if (!(d.candidates || []).length) return h('p', { class: 'muted' }, 'no candidate proposed');
    return h('div', {}, d.candidates.map((c) => {
      const s = scored.get(c.id);
      return h('details', { class: 'candidate', open: c.id === decided, 'data-candidate': c.id },
        h('summary', {}, `${c.id} — ${c.title} (${c.proposer}, ${c.category}, risk ${c.risk}, +${c.diff_stats ? c.diff_stats.added : 0}/−${c.diff_stats ? c.diff_stats.removed : 0})`),
        h('p', {}, c.rationale),
        s ? h('p', { class: 'score' }, `discriminator: score ${s.score} → ${s.recommendation}`, h('ul', {}, (s.reasons || []).map((r) => h('li', {}, r)))) : null,
        diffBlock(c.diff));
    }), d.signals && d.signals.human_feedback ? h('p', { class: 'muted' }, `given ${d.signals.human_feedback.length} verdict(s) from this viewer (train tasks only)`) : null);
  }

  function evaluation(d) {
    const e = d.evaluation || {};
    const p = e.paired;
    const seq = e.sequential;
    return h('div', {},
      h('p', {}, `${d.verdict}: ${d.reason || ''}`),
      h('p', {}, `candidate ${d.candidate_id}: ${ci(e.candidate)} vs baseline ${ci(e.baseline)}; delta ${signed(e.delta)}`),
      ratesTable('By split', e.baseline, e.candidate, 'per_split'),
      ratesTable('By category', e.baseline, e.candidate, 'per_category'),
      p ? h('p', { class: 'paired' }, `paired (${p.method}) over ${p.tasks_compared} tasks: both pass ${p.both_pass}, both fail ${p.both_fail}, fixed ${p.fixed ?? p.candidate_only}, regressed ${p.regressed ?? p.baseline_only}; p = ${f4(p.p_value)}`) : null,
      seq ? h('p', { class: 'plan' }, `sequential test: ${seq.decision} after ${seq.rounds} round(s), ${seq.attempts} attempts per task; effect ${signed(seq.effect && seq.effect.effect)} [${f4(seq.effect && seq.effect.low)}, ${f4(seq.effect && seq.effect.high)}]; p = ${f4(seq.p_value)}; power ${seq.power === null || seq.power === undefined ? '—' : Number(seq.power).toFixed(2)}${seq.attempts_for_80 ? `, ${seq.attempts_for_80} attempts for 80%` : ''}; ${seq.calls ? `${seq.calls.saved} calls saved` : ''}`) : null);
  }

  /** A gate check: ok, FAIL — or, for the review a held candidate needs, "waits for you" (nothing failed). */
  const checkItem = (c, held) =>
    h('li', {}, held && c.id === 'review' && !c.passed ? h('span', { class: 'waits' }, 'waits for you') : h('span', { class: c.passed ? 'pass' : 'fail' }, c.passed ? 'ok' : 'FAIL'), ` ${c.id}: ${c.detail}`);

  function gate(d, run, n) {
    const checks = d.checks || [];
    const v = { keep: 'v-keep', reject: 'v-reject', pending_review: 'v-pending' }[d.decision] || 'v-other';
    return h('div', {},
      h('p', { class: `decision ${v}` }, h('strong', {}, d.decision), ` — ${d.reason}${d.candidate_id ? ` (${d.candidate_id})` : ''}`),
      d.sequential ? h('p', {}, `decided by the sequential test: ${d.sequential.rounds} round(s), ${d.sequential.calls_saved ?? 0} calls saved`) : null,
      h('ol', { class: 'checks' }, checks.map((c) => checkItem(c, d.decision === 'pending_review'))),
      d.decision === 'pending_review' ? h('p', {}, h('a', { href: '#/review' }, 'waits for review'), ` (iteration ${n} of ${run})`) : null);
  }

  window.whetRunPage = async (run) => {
    const draw = async () => {
      const r = await api(`/api/runs/${encodeURIComponent(run)}`);
      const m = r.manifest && r.manifest.data;
      // Damage found by the check every read model makes (whet verify names the same): said first, once per file.
      const damage = (r.problems || []).filter((p) => !(r.manifest && r.manifest.error && /run\.json$/.test(p.file))).map((p) => problem(`${p.file}: ${p.message} — ${p.hint}`));
      const head = [h('h1', {}, `Run ${r.run_id}`), r.manifest && r.manifest.error ? problem(r.manifest.error) : null, ...damage,
        m ? h('p', {}, engineBadge(r.engine), ` ${m.mode} run on ${m.target ? m.target.skill_path : '?'} — status `, h('strong', { id: 'run-status' }, m.status)) : null,
        m && m.interrupted_because ? h('p', { class: 'muted', id: 'run-interrupted' }, `interrupted: run.json says running, but ${m.interrupted_because}; ${m.resume_hint}`) : null,
        r.progress ? h('p', { id: 'progress' }, progressOf(r.progress)) : null];
      // What waits for a person comes first: a candidate the gate held, whichever iteration it is in.
      const held = r.iterations.filter((it) => it.sections.gate && it.sections.gate.data && it.sections.gate.data.decision === 'pending_review');
      if (held.length) head.push(h('section', { class: 'needs-you', 'aria-labelledby': 'waiting' },
        h('h2', { id: 'waiting' }, `Waits for your review (${held.length})`),
        h('ul', {}, held.map((it) => h('li', {}, verdictOf('pending_review'), ` iteration ${it.iteration}: ${it.sections.gate.data.candidate_id} — ${it.sections.gate.data.reason} `, h('a', { href: '#/review' }, 'review it'), ' · ', h('a', { href: `#it-${it.iteration}`, onclick: (e) => (e.preventDefault(), document.getElementById(`it-${it.iteration}`).scrollIntoView()) }, 'its gate'))))));
      const its = r.iterations.slice().reverse().map((it) => {
        const s = it.sections;
        const n = it.iteration;
        return h('section', { class: 'iteration', 'aria-labelledby': `it-${n}`, 'data-iteration': n },
          h('h2', { id: `it-${n}` }, `Iteration ${n}`, ' ', h('a', { href: `${hrefRun(run)}/outputs/${n}`, class: 'outputs-link' }, 'outputs side by side')),
          ...section('Gate', s.gate, (d) => gate(d, run, n)),
          ...section('Baseline', s.baseline, baseline),
          ...section('Candidates and the discriminator', s.candidates, (d) => candidates(d, s.ranking && s.ranking.data, s.gate && s.gate.data && s.gate.data.candidate_id)),
          ...section('Evaluation', s.evaluation, evaluation),
          s.learning ? section('Learn', s.learning, (d) => h('p', {}, d.stop && d.stop.stop ? `stop (${d.stop.rule}): ${d.stop.reason}` : `continue${d.stop ? `: ${d.stop.reason}` : ''}`)) : []);
      });
      if (r.standalone) its.unshift(h('section', { class: 'iteration', 'aria-labelledby': 'it-0', 'data-iteration': 0 },
        h('h2', { id: 'it-0' }, 'Evaluation', ' ', h('a', { href: `${hrefRun(run)}/outputs/0`, class: 'outputs-link' }, 'outputs')),
        ...section('Result', r.standalone, (d) => h('div', {}, h('p', { class: 'decision' }, h('strong', {}, d.verdict), ` — ${d.reason || ''}`), d.candidate_id ? evaluation(d) : baseline(d), withoutSkill(d)))));
      const events = h('details', {}, h('summary', {}, `Last ${r.events.length} events`), h('ol', { class: 'events' }, r.events.map((e) => h('li', {}, `${e.at || ''} ${e.event}${e.stage ? ` ${e.stage}` : ''}${e.iteration !== undefined ? ` iteration ${e.iteration}` : ''}${e.verdict ? ` → ${e.verdict}` : ''}`))));
      setMain(...head, ...its, h('h2', {}, 'Events'), events);
    };
    await draw();
    window.whetLive = () => draw().catch((err) => setMain(problem(err.message)));
  };

  window.whetReviewPage = async () => {
    // What the last decision did stays on the page through live redraws; a confirmation being read holds them off.
    let result = null;
    let confirming = false;
    const decide = async (p, v) => {
      try {
        result = await api('/api/review', { run: p.run_id, candidate: p.candidate, iteration: p.iteration, verdict: v });
      } catch (err) {
        result = { message: `refused: ${err.message}`, applied: null };
      }
      confirming = false;
      await draw();
      updateNav();
    };
    // Approving changes the skill's files: what and where is said first, and it is done only on a second click.
    const confirmApprove = async (p, row) => {
      confirming = true;
      let target = 'the run’s target';
      try {
        const d = await api(`/api/runs/${encodeURIComponent(p.run_id)}`);
        const m = d.manifest && d.manifest.data;
        if (m && m.target) target = m.target.skill_dir || m.target.skill_path;
      } catch {
        // the run page names it; the approval itself checks everything again
      }
      const yes = h('button', { type: 'button', class: 'primary', onclick: (ev) => ((ev.target.disabled = true), decide(p, 'approve')) }, `Yes, apply ${p.candidate}`);
      row.replaceChildren(h('div', { class: 'confirm', role: 'group', 'aria-label': `confirm approving ${p.candidate}` },
        h('p', {}, `Approve ${p.candidate}? Its edit is applied to ${target} now; the files it replaces are backed up first (`, h('code', {}, `whet rollback ${p.run_id}`), ' restores them).'),
        yes, ' ', h('button', { type: 'button', onclick: () => ((confirming = false), draw()) }, 'Cancel')));
      yes.focus();
    };
    const draw = async () => {
      const r = await api('/api/review');
      setMain(h('h1', {}, 'Review queue'),
        result ? h('div', { role: 'status', class: `review-result ${result.applied ? 'v-keep' : ''}` },
          h('p', { id: 'review-message' }, result.message),
          result.applied ? h('p', { id: 'review-applied' }, `applied to ${result.applied.target} (${result.applied.files.join(', ')}); backup in ${result.applied.backup}`) : null) : null,
        r.enabled ? null : h('p', { class: 'muted' }, 'Read-only: start the viewer with ', h('code', {}, 'whet view --review'), ' to approve or reject here.'),
        r.pending.length === 0 ? h('p', {}, 'Nothing waits for review.') : null,
        ...r.pending.map((p) => h('section', { class: 'pending', 'aria-label': `${p.candidate} in iteration ${p.iteration}` },
          h('h2', {}, `${p.candidate} — ${p.title}`),
          h('p', {}, h('a', { href: hrefRun(p.run_id) }, p.run_id), `, iteration ${p.iteration}: ${p.reason}`),
          h('ol', { class: 'checks' }, p.checks.map((c) => checkItem(c, true))),
          diffBlock(p.diff),
          r.enabled ? h('p', { class: 'decide' },
            h('button', { type: 'button', class: 'primary', onclick: (ev) => confirmApprove(p, ev.target.parentElement) }, `Approve ${p.candidate}`), ' ',
            h('button', { type: 'button', onclick: (ev) => ((ev.target.disabled = true), decide(p, 'reject')) }, `Reject ${p.candidate}`)) : null)));
    };
    await draw();
    window.whetLive = () => (confirming ? Promise.resolve() : draw().catch((err) => setMain(problem(err.message))));
  };
  void REVIEW;
})();
