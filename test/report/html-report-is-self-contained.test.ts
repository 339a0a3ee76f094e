import { beforeAll, describe, expect, it } from 'vitest';
import { loadChartDrawer, type DrawChart } from '../../src/report/chart-svg.js';
import { renderHtmlReport } from '../../src/report/html.js';
import { printable } from '../../src/shared/printable.js';
import { facts, HOSTILE, summary } from './fixtures.js';
import { attr, byId, elements, parseHtml, rowsOf, textOf, type Element, type Node } from './html-tree.js';

// The HTML report is one file a browser opens offline: it parses without error, has one SVG per chart with
// its marks drawn, lists every rejected line with its reason, and neither runs a script nor names anything to
// fetch — whatever the provider or the documents list put in the text.

let draw: DrawChart;
beforeAll(async () => {
  draw = await loadChartDrawer();
});

const RESOURCE_TAGS = new Set(['script', 'link', 'iframe', 'frame', 'object', 'embed', 'img', 'image', 'audio', 'video', 'source', 'track', 'base', 'use', 'foreignObject']);
const RESOURCE_ATTRS = new Set(['src', 'href', 'xlink:href', 'srcset', 'action', 'formaction', 'poster', 'data', 'background', 'ping', 'manifest']);

/** Everything in the page that would make a browser fetch, load or run something. */
function outsideReferences(root: Node): string[] {
  const found: string[] = [];
  for (const el of elements(root)) {
    if (RESOURCE_TAGS.has(el.tagName)) found.push(`<${el.tagName}>`);
    for (const a of el.attrs) {
      if (RESOURCE_ATTRS.has(a.name) || a.name.startsWith('on')) found.push(`${el.tagName}[${a.name}]`);
      if (/:\/\//.test(a.value)) found.push(`${el.tagName}[${a.name}=${a.value}]`);
      if (a.name === 'style' && /url\(\s*['"]?(?!#)|@import/i.test(a.value)) found.push(`${el.tagName}[style]`);
    }
    if (el.tagName === 'style' && /url\(\s*['"]?(?!#)|@import/i.test(textOf(el))) found.push('<style> with url()');
  }
  return found;
}

/** Shapes painted with a colour: the bars, areas and legend marks of a chart. */
function filledShapes(svg: Element): number {
  return elements(svg).filter((e) => (e.tagName === 'path' || e.tagName === 'rect')).filter((e) => {
    const fill = attr(e, 'fill');
    return fill !== undefined && fill !== 'none' && fill !== 'transparent' && !/rgba\([^)]*,\s*0\)$/.test(fill);
  }).length;
}

function svgsOf(fig: Element): Element[] {
  return elements(fig).filter((e) => e.tagName === 'svg');
}

describe('the HTML report', () => {
  it('parses as HTML without a single parse error', () => {
    const { errors } = parseHtml(renderHtmlReport(summary(), facts(), draw));
    expect(errors).toEqual([]);
  });

  it('draws each chart as one inline SVG with its marks', () => {
    const { root } = parseHtml(renderHtmlReport(summary(), facts(), draw));
    // bars expected at least: stages with time, API slices with calls or 429s, change kinds, tribunal x phase cells
    const marks = { stages: 4, api: 5, changes: 3, lawsuits: 5 };
    for (const [id, least] of Object.entries(marks)) {
      const svgs = svgsOf(byId(root, `chart-${id}`));
      expect(svgs, id).toHaveLength(1);
      expect(Number(attr(svgs[0], 'width')), id).toBeGreaterThan(0);
      expect(Number(attr(svgs[0], 'height')), id).toBeGreaterThan(0);
      expect(filledShapes(svgs[0]), id).toBeGreaterThanOrEqual(least);
    }
    expect(elements(root).filter((e) => e.tagName === 'svg')).toHaveLength(4);
  });

  it('neither runs a script nor names anything to fetch, and forbids both in its policy', () => {
    const html = renderHtmlReport(summary(), facts(), draw);
    const { root } = parseHtml(html);
    expect(outsideReferences(root)).toEqual([]);
    expect(html).not.toMatch(/<script/i);
    const csp = elements(root).find((e) => e.tagName === 'meta' && attr(e, 'http-equiv') === 'Content-Security-Policy');
    expect(attr(csp!, 'content')).toContain("default-src 'none'");
    // the charts' classes and ids are the chart's own, not a process counter's
    expect(html).not.toMatch(/\bzr\d+-/);
  });

  it('lists every rejected line with its value and reason, as text', () => {
    const f = facts();
    const { root } = parseHtml(renderHtmlReport(summary(), f, draw));
    const rows = rowsOf(elements(byId(root, 'rejected')).find((e) => e.tagName === 'table')!);
    expect(rows).toEqual(f.rejected.shown.map((r) => [String(r.line), printable(r.value ?? ''), printable(r.reason)]));
    expect(textOf(byId(root, 'rejected'))).not.toContain('more, see');
  });

  it('says how many rejected lines it leaves to rejected_inputs when there are more than it lists', () => {
    const f = facts({ rejected: { total: 1234, shown: facts().rejected.shown } });
    const { root } = parseHtml(renderHtmlReport(summary(), f, draw));
    expect(textOf(byId(root, 'rejected'))).toContain('… and 1229 more, see rejected_inputs');
  });

  it('shows text from outside as text: tags stay text, control characters are shown as escapes', () => {
    const html = renderHtmlReport(summary(), facts(), draw);
    const { root } = parseHtml(html);
    const text = textOf(root);
    expect(text).toContain(HOSTILE.value);
    expect(text).toContain(HOSTILE.note);
    expect(text).toContain('bad\\u{0d}\\u{1b}[2Jhidden');
    expect(text).toContain(HOSTILE.phase);
    expect(html).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(elements(root).filter((e) => ['script', 'img', 'b'].includes(e.tagName))).toEqual([]);
    // the provider's phase and tribunal names are drawn in the chart as text too
    const chartText = textOf(byId(root, 'chart-lawsuits'));
    expect(chartText).toContain('</svg><script>');
    expect(chartText).toContain('<img src=x');
  });

  it('has the stages, the failures and the notes', () => {
    const s = summary();
    const { root } = parseHtml(renderHtmlReport(s, facts(), draw));
    const stages = rowsOf(elements(byId(root, 'stages')).find((e) => e.tagName === 'table')!);
    expect(stages.map((r) => [r[0], r[1]])).toEqual(s.stages.map((st) => [st.name, st.status]));
    expect(stages[2][3]).toContain('[API_FORBIDDEN]');
    const failures = rowsOf(elements(byId(root, 'failures')).find((e) => e.tagName === 'table')!);
    expect(failures.map((r) => r[3])).toEqual(['API_FORBIDDEN', 'REQUEST_CANCELLED']);
    expect(textOf(byId(root, 'notes'))).toContain(HOSTILE.note);
  });

  it('says why a chart has nothing to draw instead of drawing an empty frame', () => {
    const s = summary({ api: { calls: 0, byStatus: {}, retries: 0 }, changes: undefined });
    const { root, errors } = parseHtml(renderHtmlReport(s, facts({ lawsuits: { asOfRun: null, counts: [] } }), draw));
    expect(errors).toEqual([]);
    for (const [id, why] of [['api', 'sent no API call'], ['changes', 'did not run'], ['lawsuits', 'No change detection had run yet']]) {
      expect(svgsOf(byId(root, `chart-${id}`)), id).toHaveLength(0);
      expect(textOf(byId(root, `chart-${id}`)), id).toContain(why);
    }
    expect(svgsOf(byId(root, 'chart-stages'))).toHaveLength(1);
  });

  it('without the warehouse facts, still renders the summary and says what it could not read', () => {
    const { root, errors } = parseHtml(renderHtmlReport(summary(), undefined, draw));
    expect(errors).toEqual([]);
    expect(textOf(byId(root, 'rejected'))).toContain('could not be read: 5 rejected lines are in rejected_inputs');
    expect(svgsOf(byId(root, 'chart-lawsuits'))).toHaveLength(0);
  });
});
