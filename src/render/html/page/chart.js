// Charts as plain SVG, drawn here: the trend of failed findings (and of checks evaluated) per scan,
// and a tenant row's sparkline. No library: nothing to inline, nothing for the page's
// Content-Security-Policy to allow. Numbers become coordinates; any text (a scan's date) goes in as
// text. A value may be unknown (null): the line breaks there.

import { svgEl } from './dom.js';
import { day, formatCount } from './model.js';

function highest(values) {
  let high = 0;
  for (const value of values) if (value !== null && value > high) high = value;
  return high;
}

/** The runs of known values, each a list of [index, value]: a line is drawn through each. */
function runsOf(values) {
  const runs = [];
  let run = [];
  values.forEach((value, index) => {
    if (value === null || value === undefined) {
      if (run.length > 0) runs.push(run);
      run = [];
    } else run.push([index, value]);
  });
  if (run.length > 0) runs.push(run);
  return runs;
}

/** A round top for the axis at or above `value`: 1, 2, 3, 4, 5, 6, 8 × 10^n, close enough that a
 *  drop of 240 checks to 200 shows. */
function niceTop(value) {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 3, 4, 5, 6, 8, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

function textAt(x, y, words, anchor, className) {
  const node = svgEl('text', { x, y, 'text-anchor': anchor, class: className });
  node.textContent = words;
  return node;
}

/** points: [{ at: ISO time or '', value (null: unknown) }], oldest first. `label` and `unit`
 *  ("failed", "evaluated") are the page's own words. */
export function trendChart(points, label, unit = 'failed') {
  const width = 480;
  const height = 180;
  const pad = { left: 48, right: 20, top: 18, bottom: 34 };
  const top = niceTop(highest(points.map((point) => point.value)));
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const x = (index) =>
    pad.left + (points.length === 1 ? innerW / 2 : (index * innerW) / (points.length - 1));
  const y = (value) => pad.top + innerH - (value / top) * innerH;
  const chart = svgEl('svg', {
    class: 'chart',
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': label,
    focusable: 'false',
  });
  const title = svgEl('title');
  title.textContent = `${label}: ${points.map((point) => point.value ?? 'unknown').join(', ')}`;
  chart.append(title);
  for (const tick of [0, top / 2, top]) {
    chart.append(
      svgEl('line', {
        x1: pad.left,
        x2: width - pad.right,
        y1: y(tick),
        y2: y(tick),
        class: 'grid-line',
      }),
      textAt(pad.left - 8, y(tick) + 4, formatCount(Math.round(tick)), 'end', 'axis'),
    );
  }
  for (const run of runsOf(points.map((point) => point.value))) {
    const line = run.map(([index, value]) => `${x(index)},${y(value)}`).join(' ');
    chart.append(svgEl('polyline', { points: line, class: 'trend-line' }));
  }
  points.forEach((point, index) => {
    if (point.value === null) return;
    const dot = svgEl('circle', { cx: x(index), cy: y(point.value), r: 4, class: 'trend-dot' });
    const tip = svgEl('title');
    tip.textContent = `${point.at ? `${day(point.at)}: ` : ''}${formatCount(point.value)} ${unit}`;
    dot.append(tip);
    chart.append(dot);
    if (points.length <= 24) {
      chart.append(
        textAt(x(index), y(point.value) - 9, formatCount(point.value), 'middle', 'value'),
      );
    }
  });
  const first = points[0];
  const last = points[points.length - 1];
  chart.append(
    textAt(x(0), height - 10, first.at ? day(first.at) : 'oldest', 'start', 'axis'),
    textAt(x(points.length - 1), height - 10, last.at ? day(last.at) : 'this scan', 'end', 'axis'),
  );
  return chart;
}

/** Small lines for a table row: `lines` are [{ values (null: unknown), className }], each drawn
 *  on its own scale from 0 (failed findings and checks evaluated differ by far). */
export function sparkline(lines) {
  const width = 72;
  const height = 20;
  const spark = svgEl('svg', {
    class: 'spark',
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    'aria-hidden': 'true',
    focusable: 'false',
  });
  for (const { values, className } of lines) {
    const top = niceTop(highest(values));
    const x = (index) =>
      values.length === 1 ? width / 2 : 2 + (index * (width - 4)) / (values.length - 1);
    const y = (value) => height - 2 - (value / top) * (height - 4);
    for (const run of runsOf(values)) {
      const points = run.map(([index, value]) => `${x(index)},${y(value)}`).join(' ');
      spark.append(svgEl('polyline', { points, class: className }));
    }
  }
  return spark;
}
