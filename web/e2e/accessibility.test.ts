// The walkthrough's accessibility filter excuses the spec's default warn pair and nothing else.
import { describe, expect, it } from 'vitest';
import { formatViolations, isSpecDefaultPair, type A11yNode } from './accessibility.ts';

const node = (contrast?: A11yNode['contrast']): A11yNode => ({ target: '.log-card', html: '<p>x</p>', summary: '', contrast });

describe('accessibility check: what is excused', () => {
  it('excuses #b45309 on #fee2b3 (docs/spec/part-1.txt section 3 default warn), in any letter case', () => {
    expect(isSpecDefaultPair(node({ fg: '#b45309', bg: '#fee2b3', ratio: 4 }))).toBe(true);
    expect(isSpecDefaultPair(node({ fg: '#B45309', bg: '#FEE2B3', ratio: 4 }))).toBe(true);
  });

  it('does not excuse any other pair, a blend of the pair, or a finding without colours', () => {
    expect(isSpecDefaultPair(node({ fg: '#bf6823', bg: '#fee2b3', ratio: 3.2 }))).toBe(false);
    expect(isSpecDefaultPair(node({ fg: '#1677ff', bg: '#ffffff', ratio: 4.1 }))).toBe(false);
    expect(isSpecDefaultPair(node())).toBe(false);
  });

  it('prints a finding with its rule, element and colours', () => {
    const text = formatViolations('logs-light-desktop', [{ rule: 'color-contrast', impact: 'serious', help: 'Elements must meet minimum color contrast ratio thresholds', nodes: [node({ fg: '#1677ff', bg: '#ffffff', ratio: 4.1 })] }]);
    expect(text).toContain('logs-light-desktop: 1 violation(s)');
    expect(text).toContain('[serious] color-contrast');
    expect(text).toContain('.log-card (#1677ff on #ffffff, 4.1:1)');
  });
});
