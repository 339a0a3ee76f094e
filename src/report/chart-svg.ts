import { escapeHtml } from './escape-html.js';
import type { ChartSpec } from './charts.js';

// Charts drawn to SVG on the server by ECharts (its SSR mode: no DOM, no canvas, no browser), so the report is
// one file with nothing to fetch and no script to run. ECharts is loaded on first use only, and only the parts
// the report draws with: it is the largest library the tool has (the whole of it took 520 ms to import and
// 40 MB of heap; these parts some 390 ms), and only the reports need it.

export type DrawChart = (spec: ChartSpec & { option: Record<string, unknown> }) => string;

type Init = typeof import('echarts/core').init;
let loading: Promise<Init> | undefined;

async function loadECharts(): Promise<Init> {
  const [core, charts, components, renderers] = await Promise.all([
    import('echarts/core'), import('echarts/charts'), import('echarts/components'), import('echarts/renderers'),
  ]);
  core.use([charts.BarChart, charts.LineChart, components.GridComponent, components.LegendComponent, renderers.SVGRenderer]);
  return core.init;
}

/** The function that draws a chart to an SVG element, ECharts loaded. */
export async function loadChartDrawer(): Promise<DrawChart> {
  const init = await (loading ??= loadECharts());
  return (spec) => {
    const chart = init(null, null, { renderer: 'svg', ssr: true, width: spec.width, height: spec.height });
    try {
      chart.setOption(spec.option);
      return inlineSvg(chart.renderToSVGString(), spec);
    } finally {
      // an undisposed chart keeps a timer of zrender's alive, and with it the process
      chart.dispose();
    }
  };
}

/**
 * An ECharts SVG made fit to sit inline in the page, and the same whichever process drew it: zrender names the
 * classes and ids of a chart after counters of the whole process (`zr3-cls-45`, `zr3-c1`), so two charts of one
 * page could share a hover rule and a report written again in another process would differ from the first.
 * They are renamed after the chart and numbered in the order they appear in it. The namespace declarations go
 * too (an HTML parser puts `<svg>` in its namespace itself), so the file names no address at all.
 */
function inlineSvg(svg: string, spec: Pick<ChartSpec, 'id' | 'title'>): string {
  const names = new Map<string, string>();
  const next = new Map<string, number>();
  return svg
    .replace(/\bzr\d+-([a-z]+-?)(\d+)\b/g, (token: string, kind: string) => {
      let name = names.get(token);
      if (!name) {
        const k = next.get(kind) ?? 0;
        next.set(kind, k + 1);
        name = `${spec.id}-${kind}${k}`;
        names.set(token, name);
      }
      return name;
    })
    .replace(/^<svg\b([^>]*)>/, (_, attrs: string) =>
      `<svg${attrs.replace(/\s+xmlns(:xlink)?="[^"]*"/g, '')} role="img" aria-label="${escapeHtml(spec.title, 200)}">`);
}
