// The HTML report's charts, drawn as inline SVG by this code (no chart library, nothing fetched): the pass
// rate over nights or iterations with its 95% interval as a band, and per-category bars with interval
// whiskers. Every mark carries data-* attributes with the numbers it draws, so a test (or a reader's
// devtools) can check a chart against the artifact without measuring pixels.
import { ciText, f4 } from './format.js';
import type { ReportModel } from './model-schema.js';

/** Where an interval is drawn: a rate over nothing (null) spans the whole scale, as Wilson's does. */
const band = (r: { pass_rate_ci95: { low: number; high: number } | null }) => r.pass_rate_ci95 ?? { low: 0, high: 1 };

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const num = (x: number) => (Math.round(x * 10) / 10).toString();
export const COLORS = { primary: '#2563eb', reference: '#9ca3af', band: '#93c5fd', alert: '#dc2626', grid: '#e5e7eb', text: '#374151' };

/** Pass rate per night (or iteration) with its Wilson band; alert nights drawn red. */
export function trendChart(trend: ReportModel['trend']): string {
  const pts = trend.points.filter((p) => p.pass_rate !== null);
  if (pts.length === 0) return '<p data-testid="trend-empty">No pass rate to chart: nothing was judged.</p>';
  const W = 680;
  const H = 250;
  const L = 46;
  const R = 20;
  const T = 14;
  const B = 52;
  const y = (v: number) => T + (1 - v) * (H - T - B);
  const x = (i: number) => (pts.length === 1 ? (L + W - R) / 2 : L + (i * (W - L - R)) / (pts.length - 1));
  const out: string[] = [`<svg data-testid="trend-chart" data-source="${trend.source}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="pass rate over time with 95% intervals">`];
  for (const g of [0, 0.25, 0.5, 0.75, 1]) {
    out.push(`<line x1="${L}" x2="${W - R}" y1="${num(y(g))}" y2="${num(y(g))}" stroke="${COLORS.grid}"/>`);
    out.push(`<text x="${L - 6}" y="${num(y(g) + 4)}" text-anchor="end" font-size="11" fill="${COLORS.text}">${g.toFixed(2)}</text>`);
  }
  if (pts.length > 1) {
    const upper = pts.map((p, i) => `${num(x(i))},${num(y(band(p).high))}`);
    const lower = pts.map((p, i) => `${num(x(i))},${num(y(band(p).low))}`).reverse();
    out.push(`<polygon data-testid="trend-band" points="${[...upper, ...lower].join(' ')}" fill="${COLORS.band}" fill-opacity="0.35" stroke="none"/>`);
    out.push(`<polyline data-testid="trend-line" points="${pts.map((p, i) => `${num(x(i))},${num(y(p.pass_rate!))}`).join(' ')}" fill="none" stroke="${COLORS.primary}" stroke-width="2"/>`);
  }
  const every = Math.max(1, Math.ceil(pts.length / 8));
  pts.forEach((p, i) => {
    const cx = num(x(i));
    // With one point there is no band to draw: show its interval as a whisker instead.
    if (pts.length === 1) out.push(`<line x1="${cx}" x2="${cx}" y1="${num(y(band(p).low))}" y2="${num(y(band(p).high))}" stroke="${COLORS.band}" stroke-width="8" stroke-linecap="round"/>`);
    const tip = `${p.label}: ${f4(p.pass_rate)} (${p.passed}/${p.judged}) 95% CI ${ciText(p)}${p.note ? ` — ${p.note}` : ''}`;
    out.push(
      `<circle data-testid="trend-point" data-label="${esc(p.label)}" data-rate="${f4(p.pass_rate)}" data-low="${f4(band(p).low)}" data-high="${f4(band(p).high)}" data-alert="${p.alert}" cx="${cx}" cy="${num(y(p.pass_rate!))}" r="4.5" fill="${p.alert ? COLORS.alert : COLORS.primary}"><title>${esc(tip)}</title></circle>`,
    );
    // The end labels hang inward so they stay inside the drawing.
    const anchor = pts.length > 1 && i === 0 ? 'start' : pts.length > 1 && i === pts.length - 1 ? 'end' : 'middle';
    if (i % every === 0 || i === pts.length - 1) out.push(`<text x="${cx}" y="${H - B + 18}" text-anchor="${anchor}" font-size="11" fill="${COLORS.text}">${esc(p.label)}</text>`);
  });
  const alerts = pts.some((p) => p.alert) ? '; red: a drift alert' : '';
  out.push(`<text x="${(L + W - R) / 2}" y="${H - 8}" text-anchor="middle" font-size="11" fill="${COLORS.text}">${trend.source === 'nightly' ? 'night' : trend.source === 'iterations' ? 'loop iteration (baseline)' : 'run'} — band: 95% Wilson interval${alerts}</text>`);
  out.push('</svg>');
  return out.join('\n');
}

/** Horizontal bars per category: the primary variant and its reference side by side, each with its interval. */
export function categoryChart(m: ReportModel): string {
  const rows = m.system.per_category;
  if (rows.length === 0) return '<p data-testid="category-empty">No category was measured.</p>';
  const roles = [
    { key: 'primary' as const, v: m.system.primary, color: COLORS.primary },
    { key: 'reference' as const, v: m.system.reference, color: COLORS.reference },
  ].filter((r) => r.v !== null);
  const W = 680;
  const labelW = 170;
  const valueW = 120;
  const area = W - labelW - valueW;
  const barH = 14;
  const rowH = roles.length * (barH + 4) + 12;
  const H = rows.length * rowH + 12 + roles.length * 18;
  const out: string[] = [`<svg data-testid="category-chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="pass rate per category with 95% intervals">`];
  rows.forEach((c, i) => {
    const top = 6 + i * rowH;
    out.push(`<text x="${labelW - 8}" y="${top + rowH / 2}" text-anchor="end" font-size="12" fill="${COLORS.text}">${esc(c.category)}</text>`);
    roles.forEach((r, j) => {
      const rate = c[r.key];
      const y0 = top + j * (barH + 4);
      out.push(`<rect x="${labelW}" y="${y0}" width="${area}" height="${barH}" fill="${COLORS.grid}" fill-opacity="0.5"/>`);
      if (!rate) return;
      const w = (rate.pass_rate ?? 0) * area;
      out.push(
        `<rect data-testid="category-bar" data-category="${esc(c.category)}" data-role="${r.v!.role}" data-rate="${f4(rate.pass_rate)}" data-passed="${rate.passed}" data-judged="${rate.judged}" x="${labelW}" y="${y0}" width="${num(w)}" height="${barH}" fill="${r.color}"><title>${esc(`${c.category}, ${r.v!.label}: ${f4(rate.pass_rate)} (${rate.passed}/${rate.judged}) 95% CI ${ciText(rate)}`)}</title></rect>`,
      );
      const lo = labelW + band(rate).low * area;
      const hi = labelW + band(rate).high * area;
      const mid = y0 + barH / 2;
      out.push(`<path d="M${num(lo)} ${mid}H${num(hi)}M${num(lo)} ${y0 + 3}V${y0 + barH - 3}M${num(hi)} ${y0 + 3}V${y0 + barH - 3}" stroke="#111827" stroke-width="1.2" fill="none"/>`);
      out.push(`<text x="${labelW + area + 8}" y="${y0 + barH - 3}" font-size="11" fill="${COLORS.text}">${f4(rate.pass_rate)} (${rate.passed}/${rate.judged})${rate.errors ? ` +${rate.errors} err` : ''}</text>`);
    });
  });
  roles.forEach((r, j) => {
    const ly = rows.length * rowH + 16 + j * 18;
    out.push(`<rect x="${labelW}" y="${ly - 10}" width="12" height="12" fill="${r.color}"/><text x="${labelW + 18}" y="${ly}" font-size="11" fill="${COLORS.text}">${esc(r.v!.label)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
