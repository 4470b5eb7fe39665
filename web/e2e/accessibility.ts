// Automated accessibility check for the browser walkthrough: axe-core (WCAG 2.1 A and AA rules) plus
// the heading rules WCAG leaves to best practice (one level-one heading, no skipped levels), run on
// every page view so a new screen keeps to them without anyone remembering to look.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Axe from 'axe-core';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.1 level A and AA tags axe files its rules under. */
export const WCAG_21_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

/** Best-practice heading rules run on top: a page starts with one h1 and never skips a level. */
const HEADING_RULES = ['page-has-heading-one', 'heading-order'] as const;

/**
 * Level colours the spec fixes (docs/spec/part-1.txt section 3, "Level colours ... Defaults: warn #fee2b3 on #b45309"):
 * they measure 4.0:1, below AA's 4.5:1, but they are the product's defaults, so the contrast rule
 * excuses exactly this pair and nothing else. The warn cards say so to the user (LevelContrastNote).
 */
export const SPEC_DEFAULT_LEVEL_PAIRS: readonly { level: string; fg: string; bg: string }[] = [{ level: 'warn', fg: '#b45309', bg: '#fee2b3' }];

export interface A11yNode {
  target: string;
  html: string;
  summary: string;
  /** color-contrast only: the measured colours and ratio. */
  contrast?: { fg: string; bg: string; ratio: number };
}

export interface A11yViolation {
  rule: string;
  impact: string;
  help: string;
  nodes: A11yNode[];
}

interface ContrastData {
  fgColor?: string;
  bgColor?: string;
  contrastRatio?: number;
}

function isContrastData(data: unknown): data is ContrastData {
  return typeof data === 'object' && data !== null && 'fgColor' in data && 'bgColor' in data;
}

/** What crosses back from the browser for one element (axe's NodeResult without the element). */
interface RawNode {
  target: readonly unknown[];
  html: string;
  failureSummary?: string;
  any: readonly { id: string; data: unknown }[];
}

function toNode(node: RawNode): A11yNode {
  const data = node.any.find((check) => check.id === 'color-contrast')?.data;
  const contrast = isContrastData(data) ? { fg: String(data.fgColor), bg: String(data.bgColor), ratio: Number(data.contrastRatio) } : undefined;
  return { target: node.target.map(String).join(' '), html: node.html.slice(0, 160), summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim(), contrast };
}

/** True when the node is one of the spec's own default level colour pairs (see SPEC_DEFAULT_LEVEL_PAIRS). */
export function isSpecDefaultPair(node: A11yNode): boolean {
  const contrast = node.contrast;
  if (!contrast) return false;
  return SPEC_DEFAULT_LEVEL_PAIRS.some((pair) => pair.fg === contrast.fg.toLowerCase() && pair.bg === contrast.bg.toLowerCase());
}

export interface A11yResult {
  violations: A11yViolation[];
  /** Elements painted in the spec's default warn colours, left out of color-contrast (listed, not hidden). */
  excused: A11yNode[];
}

/** axe's findings on the page as it is now, minus the spec's default level colours. */
export async function checkAccessibility(page: Page): Promise<A11yResult> {
  // Evaluated through the DevTools protocol rather than page.addScriptTag: the app's Content-Security-
  // Policy (script-src 'self') rightly refuses an injected inline script, and the walkthrough keeps
  // that policy on (no bypassCSP) so it still proves the app runs under it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    async ({ tags, extra }) => {
      const axe = (window as unknown as { axe: typeof Axe }).axe;
      const rules = [...axe.getRules([...tags]).map((rule) => rule.ruleId), ...extra];
      const answer = await axe.run(document, { runOnly: { type: 'rule', values: rules }, resultTypes: ['violations'] });
      // Only the plain fields cross back to Node (elements do not serialise).
      return answer.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? 'unknown',
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary, any: n.any.map((c) => ({ id: c.id, data: c.data as unknown })) })),
      }));
    },
    { tags: WCAG_21_AA_TAGS, extra: HEADING_RULES },
  );
  const violations: A11yViolation[] = [];
  const excused: A11yNode[] = [];
  for (const v of results) {
    const nodes = v.nodes.map(toNode);
    if (v.id === 'color-contrast') excused.push(...nodes.filter(isSpecDefaultPair));
    const kept = v.id === 'color-contrast' ? nodes.filter((n) => !isSpecDefaultPair(n)) : nodes;
    if (kept.length > 0) violations.push({ rule: v.id, impact: v.impact, help: v.help, nodes: kept });
  }
  const h1s = await page.evaluate(() => Array.from(document.querySelectorAll('h1, [role="heading"][aria-level="1"]')).filter((el) => el.getClientRects().length > 0).length);
  if (h1s > 1) violations.push({ rule: 'single-heading-one', impact: 'moderate', help: 'A page view has exactly one level-one heading', nodes: [{ target: 'h1', html: `${h1s} visible level-one headings`, summary: '' }] });
  return { violations, excused };
}

/** One readable block per view: rule, impact, help, then each element with its colours when it is a contrast finding. */
export function formatViolations(view: string, violations: readonly A11yViolation[]): string {
  const lines = [`${view}: ${violations.length} violation(s)`];
  for (const v of violations) {
    lines.push(`  [${v.impact}] ${v.rule}: ${v.help}`);
    for (const node of v.nodes) {
      const colours = node.contrast ? ` (${node.contrast.fg} on ${node.contrast.bg}, ${node.contrast.ratio}:1)` : '';
      lines.push(`    - ${node.target}${colours}\n      ${node.html}`);
    }
  }
  return lines.join('\n');
}
