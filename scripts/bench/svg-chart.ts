// Line charts as plain SVG text: side-by-side panels sharing a categorical x axis, each with
// its own y axis (from zero), legend and value labels. Written by hand so the benchmarks need
// no charting library, and the output renders the same in a browser and on GitHub (a white
// background, system fonts, no scripts or external references).

export interface Series {
  name: string;
  values: (number | null)[];
  color: string;
  dashed?: boolean;
}

export interface Panel {
  title: string;
  /** Shown on the y axis and after each value label. */
  unit: string;
  series: Series[];
  /** Digits after the point in value labels. */
  digits?: number;
}

export interface Chart {
  title: string;
  subtitle?: string;
  xTitle: string;
  xLabels: string[];
  panels: Panel[];
}

const PANEL_W = 460;
const PANEL_H = 360;
const MARGIN = { left: 64, right: 24, top: 96, bottom: 56 };
const HEADER_H = 56;
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"';

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (v: number) => String(Number(v.toFixed(2)));

/** A round axis maximum and tick step covering `max` in about five steps. */
export function niceScale(max: number): { max: number; step: number } {
  if (!(max > 0)) return { max: 1, step: 0.2 };
  const raw = max / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  return { max: Math.ceil(max / step) * step, step };
}

function text(x: number, y: number, content: string, attrs = ''): string {
  return `<text x="${fmt(x)}" y="${fmt(y)}" ${attrs}>${escape(content)}</text>`;
}

function renderPanel(panel: Panel, chart: Chart, offsetX: number): string {
  const plotW = PANEL_W - MARGIN.left - MARGIN.right;
  const plotH = PANEL_H - MARGIN.top - MARGIN.bottom;
  const left = offsetX + MARGIN.left;
  const top = HEADER_H + MARGIN.top;
  const values = panel.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  const scale = niceScale(Math.max(0, ...values));
  const x = (i: number) => left + ((i + 0.5) * plotW) / chart.xLabels.length;
  const y = (v: number) => top + plotH - (v / scale.max) * plotH;
  const out: string[] = [];

  out.push(
    text(offsetX + PANEL_W / 2, HEADER_H + 22, panel.title, 'font-size="15" font-weight="600" text-anchor="middle"'),
  );
  // Legend: line samples under the panel title, wrapping to a second row when needed.
  let legendX = left;
  let legendY = HEADER_H + 42;
  for (const s of panel.series) {
    const width = 40 + s.name.length * 6.4;
    if (legendX > left && legendX + width > left + plotW) {
      legendX = left;
      legendY += 18;
    }
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
    out.push(
      `<line x1="${fmt(legendX)}" y1="${legendY}" x2="${fmt(legendX + 22)}" y2="${legendY}" stroke="${s.color}" ` +
        `stroke-width="2.5"${dash}/>`,
    );
    out.push(text(legendX + 28, legendY + 4, s.name, 'font-size="12"'));
    legendX += width;
  }
  // Grid and y axis.
  for (let v = 0; v <= scale.max + scale.step / 2; v += scale.step) {
    out.push(`<line x1="${left}" y1="${fmt(y(v))}" x2="${left + plotW}" y2="${fmt(y(v))}" stroke="#e3e3e3"/>`);
    out.push(text(left - 8, y(v) + 4, fmt(v), 'font-size="12" text-anchor="end" fill="#444"'));
  }
  out.push(`<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}" stroke="#333"/>`);
  out.push(`<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="#333"/>`);
  const midY = top + plotH / 2;
  out.push(
    text(
      offsetX + 18,
      midY,
      panel.unit,
      `font-size="12" text-anchor="middle" transform="rotate(-90 ${offsetX + 18} ${fmt(midY)})"`,
    ),
  );
  // X axis: one tick per category.
  chart.xLabels.forEach((label, i) => {
    out.push(`<line x1="${fmt(x(i))}" y1="${top + plotH}" x2="${fmt(x(i))}" y2="${top + plotH + 5}" stroke="#333"/>`);
    out.push(text(x(i), top + plotH + 20, label, 'font-size="12" text-anchor="middle"'));
  });
  out.push(text(left + plotW / 2, top + plotH + 44, chart.xTitle, 'font-size="12" text-anchor="middle" fill="#444"'));
  // Series: a line through the known points and a dot at each.
  const labels: { x: number; y: number; text: string; color: string }[] = [];
  for (const s of panel.series) {
    const known = s.values.flatMap((v, i) => (v === null || !Number.isFinite(v) ? [] : [[x(i), y(v), v] as const]));
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
    if (known.length > 1) {
      out.push(
        `<polyline fill="none" stroke="${s.color}" stroke-width="2.5"${dash} ` +
          `points="${known.map(([px, py]) => `${fmt(px)},${fmt(py)}`).join(' ')}"/>`,
      );
    }
    for (const [px, py, v] of known) {
      out.push(
        `<circle cx="${fmt(px)}" cy="${fmt(py)}" r="4" fill="${s.color}">` +
          `<title>${escape(`${s.name}: ${v.toFixed(panel.digits ?? 1)} ${panel.unit}`)}</title></circle>`,
      );
      labels.push({ x: px + 8, y: py - 4, text: v.toFixed(panel.digits ?? 1), color: s.color });
    }
  }
  // Value labels right of their dots, pushed apart vertically where series come close.
  const columns = new Map<number, typeof labels>();
  for (const l of labels) columns.set(l.x, [...(columns.get(l.x) ?? []), l]);
  for (const column of columns.values()) {
    column.sort((a, b) => a.y - b.y);
    for (let i = 1; i < column.length; i++) column[i].y = Math.max(column[i].y, column[i - 1].y + 13);
    // A white outline keeps a label readable where a line runs under it.
    for (const l of column)
      out.push(
        text(
          l.x,
          l.y,
          l.text,
          `font-size="11" font-weight="600" fill="${l.color}" stroke="#fff" stroke-width="3" paint-order="stroke"`,
        ),
      );
  }
  return out.join('\n');
}

export function renderChart(chart: Chart): string {
  const width = PANEL_W * chart.panels.length;
  const height = HEADER_H + PANEL_H;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      `${FONT} fill="#222">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    text(width / 2, 26, chart.title, 'font-size="18" font-weight="700" text-anchor="middle"'),
    chart.subtitle ? text(width / 2, 46, chart.subtitle, 'font-size="12" text-anchor="middle" fill="#555"') : '',
    ...chart.panels.map((panel, i) => renderPanel(panel, chart, i * PANEL_W)),
    '</svg>',
    '',
  ];
  return parts.filter((p) => p !== '').join('\n');
}
