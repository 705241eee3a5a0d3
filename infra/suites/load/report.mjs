// What a run of runner.mjs amounts to: per-route figures judged against the scenario table's thresholds,
// per-second series, the breakpoint table, and the two files a run leaves: summary.json and a self-contained
// report.html (inline SVG charts, no script, no network) a person can open from a CI artefact.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTES, rateAt } from './scenarios.mjs';

/** The expectation and thresholds behind a metric name: `route`, `route.poll` or `route.job`. */
export function metricSpec(name) {
  const [route, part] = name.split('.');
  const spec = ROUTES[route];
  if (part === 'poll')
    return { label: `${spec.label}: polls`, expect: spec.poll.expect, thresholds: spec.poll.thresholds };
  if (part === 'job')
    return {
      label: `${spec.label}: submit to completed`,
      expect: 200,
      thresholds: { p99Ms: spec.poll.completion.p99Ms, errorRate: 0 },
    };
  return { label: spec.label, expect: spec.expect, thresholds: spec.thresholds };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
}
const round = (n) => Math.round(n * 10) / 10;

/** Latency of the answers that are not 429, error and 429 counts, percentiles, and each threshold's verdict. */
function judgeMetric(name, s, max429Rate, warmupMs) {
  const spec = metricSpec(name);
  const latencies = [];
  let errors = 0;
  let limited = 0;
  let judged = 0;
  const statuses = {};
  for (let i = 0; i < s.ms.length; i++) {
    if (s.at[i] < warmupMs) continue;
    judged += 1;
    const status = s.status[i];
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status === 429) {
      limited += 1;
      continue;
    }
    latencies.push(s.ms[i]);
    if (status !== spec.expect) errors += 1;
  }
  latencies.sort((a, b) => a - b);
  const answered = latencies.length;
  const dropped = s.droppedAt.length;
  const figures = {
    label: spec.label,
    requests: s.ms.length,
    judged,
    answered,
    errors,
    errorRate: answered ? errors / answered : 0,
    rateLimited: limited,
    /** Problem codes of refusals (RATE_LIMITED, QUOTA_EXCEEDED, …) and socket errors of unanswered requests. */
    failureCodes: s.codes,
    statuses,
    dropped,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.length ? round(latencies[latencies.length - 1]) : null,
  };
  const checks = [];
  const t = spec.thresholds;
  if (t.p95Ms !== undefined) checks.push({ what: `p95 ≤ ${t.p95Ms} ms`, ok: (figures.p95Ms ?? 0) <= t.p95Ms });
  if (t.p99Ms !== undefined) checks.push({ what: `p99 ≤ ${t.p99Ms} ms`, ok: (figures.p99Ms ?? 0) <= t.p99Ms });
  checks.push({ what: `errors ≤ ${t.errorRate * 100}%`, ok: figures.errorRate <= t.errorRate });
  if (max429Rate !== null && !name.includes('.'))
    checks.push({ what: `429s ≤ ${max429Rate * 100}%`, ok: limited <= max429Rate * Math.max(1, judged) });
  // An arrival the runner could not send means the rate asked for was not the rate measured.
  if (!name.includes('.'))
    checks.push({ what: 'dropped arrivals ≤ 1%', ok: dropped <= 0.01 * (s.ms.length + dropped) });
  if (answered === 0) checks.push({ what: 'at least one answer', ok: false });
  return { ...figures, thresholds: checks, passed: checks.every((c) => c.ok) };
}

/** Per second since the start of the run: answers, non-429 errors, 429s, and latency percentiles. */
function perSecond(s, seconds, expect) {
  const buckets = Array.from({ length: Math.ceil(seconds) + 1 }, () => ({ ms: [], errors: 0, limited: 0 }));
  for (let i = 0; i < s.ms.length; i++) {
    const b = buckets[Math.min(buckets.length - 1, Math.floor(s.at[i] / 1000))];
    if (s.status[i] === 429) b.limited += 1;
    else {
      b.ms.push(s.ms[i]);
      if (s.status[i] !== expect) b.errors += 1;
    }
  }
  return buckets.map((b, second) => {
    b.ms.sort((x, y) => x - y);
    return {
      second,
      answered: b.ms.length,
      errors: b.errors,
      limited: b.limited,
      p50Ms: percentile(b.ms, 50),
      p95Ms: percentile(b.ms, 95),
      p99Ms: percentile(b.ms, 99),
    };
  });
}

/**
 * For each route of a breakpoint run, in windows of the scenario's length: the arrival rate asked for, the
 * p99 and the failures; the rate at which p99 first crossed the route's threshold and the rate at which the
 * first error (a non-429 failure, or an arrival dropped because every connection was busy) came.
 */
export function breakpointTable(run, scenario) {
  const windowMs = scenario.breakpoint.windowSeconds * 1000;
  return Object.keys(scenario.routes).map((route) => {
    const s = run.samples[route];
    const start = run.routeStarts[route];
    const spec = metricSpec(route);
    const rows = [];
    if (s && start !== undefined) {
      const end = Math.max(...s.at, start);
      for (let from = start; from < end; from += windowMs) {
        const ms = [];
        let errors = 0;
        for (let i = 0; i < s.at.length; i++) {
          if (s.at[i] < from || s.at[i] >= from + windowMs || s.status[i] === 429) continue;
          ms.push(s.ms[i]);
          if (s.status[i] !== spec.expect) errors += 1;
        }
        const dropped = s.droppedAt.filter((d) => d >= from && d < from + windowMs).length;
        ms.sort((a, b) => a - b);
        const mid = (from - start + windowMs / 2) / 1000 / run.timeScale;
        rows.push({
          targetRate: round(rateAt(scenario.routes[route], mid) * run.rateScale),
          sentRate: round(ms.length / (windowMs / 1000)),
          p99Ms: percentile(ms, 99),
          errors,
          dropped,
        });
      }
    }
    const over = (r) => r.p99Ms !== null && r.p99Ms > spec.thresholds.p99Ms;
    const crossing = rows.find(over);
    // On a shared machine one slow window can cross early: where it crossed for good says more.
    const sustained = rows.find((r, i) => rows.slice(i).every(over));
    const failing = rows.find((r) => r.errors > 0 || r.dropped > 0);
    return {
      route,
      p99ThresholdMs: spec.thresholds.p99Ms,
      p99CrossesAtRate: crossing?.targetRate ?? null,
      p99StaysOverFromRate: sustained?.targetRate ?? null,
      errorsStartAtRate: failing?.targetRate ?? null,
      highestRateTried: rows.length ? Math.max(...rows.map((r) => r.targetRate)) : null,
      stoppedEarly: run.aborted[route] ?? null,
      windows: rows,
    };
  });
}

export function breakpointText(table) {
  const head = [
    'route',
    'p99 limit',
    'p99 first over at',
    'p99 over for good from',
    'errors start at',
    'highest tried',
  ];
  const rate = (r) => (r === null ? 'not reached' : `${r}/s`);
  const rows = table.map((r) => [
    r.route,
    `${r.p99ThresholdMs} ms`,
    rate(r.p99CrossesAtRate),
    rate(r.p99StaysOverFromRate),
    r.errorsStartAtRate === null ? 'not reached' : `${r.errorsStartAtRate}/s`,
    `${r.highestRateTried ?? '-'}/s${r.stoppedEarly ? ' (stopped)' : ''}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The whole verdict of a run: every metric judged, the series, and for a breakpoint run its table. */
export function summarise(run, scenario) {
  const metrics = {};
  const series = {};
  for (const [name, s] of Object.entries(run.samples)) {
    metrics[name] = judgeMetric(name, s, scenario.max429Rate, (scenario.warmupSeconds ?? 0) * 1000 * run.timeScale);
    series[name] = perSecond(s, run.seconds, metricSpec(name).expect);
  }
  const summary = {
    scenario: run.scenario,
    description: scenario.description,
    target: run.url,
    startedAt: run.startedAt,
    seconds: round(run.seconds),
    timeScale: run.timeScale,
    rateScale: run.rateScale,
    tier: scenario.tier,
    rateLimits: scenario.rateLimits,
    warmupSeconds: (scenario.warmupSeconds ?? 0) * run.timeScale,
    metrics,
    jobs: run.jobs,
    passed: Object.values(metrics).every((m) => m.passed) && Object.keys(metrics).length > 0,
    series,
  };
  if (scenario.breakpoint) {
    summary.breakpoint = breakpointTable(run, scenario);
    // The breakpoint run is meant to cross its thresholds: its verdict is whether it found the points.
    summary.passed = summary.breakpoint.every((r) => r.windows.length > 0);
  }
  return summary;
}

/** One line per metric, as the terminal and the CI log show it. */
export function summaryText(summary) {
  const lines = [`load:${summary.scenario} against ${summary.target}, ${summary.seconds} s`];
  for (const [name, m] of Object.entries(summary.metrics)) {
    const failed = m.thresholds.filter((c) => !c.ok).map((c) => c.what);
    lines.push(
      `  ${name.padEnd(17)} ${String(m.requests).padStart(6)} req, p50 ${m.p50Ms} / p95 ${m.p95Ms} / p99 ${m.p99Ms} ms, ` +
        `errors ${(m.errorRate * 100).toFixed(2)}%, 429 × ${m.rateLimited}, dropped ${m.dropped}` +
        (failed.length ? `  FAILED: ${failed.join(', ')}` : '  ok'),
    );
  }
  if (summary.breakpoint) lines.push('', breakpointText(summary.breakpoint));
  lines.push(`load:${summary.scenario}: ${summary.passed ? 'passed' : 'FAILED'}`);
  return lines.join('\n');
}

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#4b5563', '#ca8a04'];
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** A line chart as inline SVG: series of [x, y] points, an optional dashed limit line. */
function lineChart({ title, series, yLabel, limit }) {
  const W = 900;
  const H = 260;
  const pad = { l: 56, r: 12, t: 24, b: 32 };
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const xMax = Math.max(1, ...xs);
  const yMax = Math.max(1, ...ys, limit ?? 0) * 1.1;
  const x = (v) => pad.l + (v / xMax) * (W - pad.l - pad.r);
  const y = (v) => H - pad.b - (v / yMax) * (H - pad.t - pad.b);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * yMax);
  const grid = ticks
    .map(
      (v) =>
        `<line x1="${pad.l}" x2="${W - pad.r}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e7eb"/>` +
        `<text x="${pad.l - 6}" y="${y(v) + 4}" text-anchor="end" font-size="11">${yMax < 10 ? v.toFixed(1) : Math.round(v)}</text>`,
    )
    .join('');
  const xTicks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (f) =>
        `<text x="${x(f * xMax)}" y="${H - pad.b + 14}" text-anchor="middle" font-size="11">${Math.round(f * xMax)}</text>`,
    )
    .join('');
  const lines = series
    .map((s, i) => {
      const d = s.points.map((p, j) => `${j ? 'L' : 'M'}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join('');
      return `<path d="${d}" fill="none" stroke="${COLORS[i % COLORS.length]}" stroke-width="1.5"/>`;
    })
    .join('');
  const legend = series
    .map((s, i) => `<tspan fill="${COLORS[i % COLORS.length]}" dx="${i ? 14 : 0}">■ ${esc(s.name)}</tspan>`)
    .join('');
  const limitLine =
    limit === undefined
      ? ''
      : `<line x1="${pad.l}" x2="${W - pad.r}" y1="${y(limit)}" y2="${y(limit)}" stroke="#dc2626" stroke-dasharray="6 4"/>` +
        `<text x="${W - pad.r}" y="${y(limit) - 4}" text-anchor="end" font-size="11" fill="#dc2626">limit ${limit}</text>`;
  return (
    `<figure><figcaption>${esc(title)}</figcaption><svg viewBox="0 0 ${W} ${H}" width="100%" role="img" ` +
    `aria-label="${esc(title)}" font-family="system-ui, sans-serif">${grid}${xTicks}${limitLine}${lines}` +
    `<text x="${pad.l}" y="14" font-size="12">${legend}</text>` +
    `<text x="${W / 2}" y="${H - 6}" text-anchor="middle" font-size="11">seconds since start</text>` +
    `<text x="12" y="${H / 2}" font-size="11" transform="rotate(-90 12 ${H / 2})" text-anchor="middle">${esc(yLabel)}</text>` +
    `</svg></figure>`
  );
}

export function reportHtml(summary) {
  const metricRows = Object.entries(summary.metrics)
    .map(
      ([name, m]) =>
        `<tr class="${m.passed ? 'ok' : 'bad'}"><td>${esc(name)}<br><small>${esc(m.label)}</small></td><td>${m.requests}</td>` +
        `<td>${m.p50Ms ?? '-'}</td><td>${m.p95Ms ?? '-'}</td><td>${m.p99Ms ?? '-'}</td><td>${m.maxMs ?? '-'}</td>` +
        `<td>${(m.errorRate * 100).toFixed(2)}%</td><td>${m.rateLimited}</td><td>${m.dropped}</td>` +
        `<td>${m.thresholds.map((c) => `${c.ok ? '✓' : '✗'} ${esc(c.what)}`).join('<br>')}</td></tr>`,
    )
    .join('');
  const charts = Object.entries(summary.series)
    .filter(([name]) => !name.endsWith('.job'))
    .map(([name, points]) => {
      const active = points.filter((p) => p.answered > 0);
      return lineChart({
        title: `${name}: latency over time (answers that are not 429)`,
        yLabel: 'ms',
        limit: metricSpec(name).thresholds.p99Ms,
        series: ['p50Ms', 'p95Ms', 'p99Ms'].map((k) => ({
          name: k.replace('Ms', ''),
          points: active.map((p) => [p.second, p[k]]),
        })),
      });
    })
    .join('');
  const throughput = lineChart({
    title: 'Throughput: answers per second by route, 429s and errors of all routes',
    yLabel: 'per second',
    series: [
      ...Object.entries(summary.series)
        .filter(([name]) => !name.endsWith('.job'))
        .map(([name, points]) => ({ name, points: points.map((p) => [p.second, p.answered]) })),
      {
        name: '429',
        points: sumSeries(summary.series, (p) => p.limited),
      },
      { name: 'errors', points: sumSeries(summary.series, (p) => p.errors) },
    ],
  });
  const breakpoint = summary.breakpoint
    ? `<h2>Breakpoint</h2><pre>${esc(breakpointText(summary.breakpoint))}</pre>`
    : '';
  const jobs = summary.jobs.length
    ? `<h2>Bulk jobs</h2><ul>${summary.jobs
        .map(
          (j) =>
            `<li>${esc(j.jobId)}: ${esc(j.status)}${j.finishedAt ? ` in ${((j.finishedAt - j.submittedAt) / 1000).toFixed(1)} s` : ''}</li>`,
        )
        .join('')}</ul>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>load:${esc(summary.scenario)} — ${summary.passed ? 'passed' : 'FAILED'}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:960px;color:#111827}
table{border-collapse:collapse;width:100%;font-size:13px}td,th{border:1px solid #e5e7eb;padding:4px 6px;text-align:right;vertical-align:top}
td:first-child,td:last-child{text-align:left}tr.bad td{background:#fef2f2}tr.ok td:last-child{color:#166534}
figure{margin:1.5rem 0}figcaption{font-weight:600;margin-bottom:.25rem}.verdict{font-size:1.25rem;font-weight:700}
</style></head><body>
<h1>load:${esc(summary.scenario)}</h1>
<p class="verdict" style="color:${summary.passed ? '#166534' : '#b91c1c'}">${summary.passed ? 'passed' : 'FAILED'}</p>
<p>${esc(summary.description)}</p>
<p>Against ${esc(summary.target)} from ${esc(summary.startedAt)} for ${summary.seconds} s; tier ${esc(summary.tier)},
rate limits ${esc(summary.rateLimits)}; durations × ${summary.timeScale}, rates × ${summary.rateScale}.
Latency percentiles are over the answers that are not 429; 429s are counted apart.
${summary.warmupSeconds ? `Requests sent in the first ${summary.warmupSeconds} s (warm-up) are charted, not judged.` : ''}</p>
<table><thead><tr><th>metric</th><th>requests</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th>
<th>errors</th><th>429</th><th>dropped</th><th>thresholds</th></tr></thead><tbody>${metricRows}</tbody></table>
${breakpoint}
${throughput}
${charts}
${jobs}
</body></html>
`;
}

function sumSeries(series, f) {
  const length = Math.max(0, ...Object.values(series).map((points) => points.length));
  return Array.from({ length }, (_, second) => [
    second,
    Object.values(series).reduce((n, points) => n + (points[second] ? f(points[second]) : 0), 0),
  ]);
}

/** Writes summary.json and report.html under `dir` (a folder per run); returns their paths. */
export function writeReport(summary, dir) {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'summary.json');
  const html = join(dir, 'report.html');
  writeFileSync(json, `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(html, reportHtml(summary));
  return { json, html };
}
