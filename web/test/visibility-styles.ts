// antd writes its CSS-in-JS into <style> elements, thousands of rules by a file's last test. jsdom's
// getComputedStyle matches every rule's selector against the element and each ancestor, and Testing
// Library calls it for every element a role query considers (is it hidden?), so most of a screen test's
// time went into selector matching. What a component test observes of CSS is whether an element is shown
// and can be clicked: Testing Library reads `display` and `visibility`, user-event reads `pointer-events`.
// The styles antd injects keep only those declarations (in their rules, in their order, inside their
// @media/@supports/@layer blocks), so hidden popups stay hidden at a fraction of the matching.

const OBSERVED = new Set(['display', 'visibility', 'pointer-events']);
const NESTING_AT_RULES = /^@(media|supports|layer|container|scope|document)\b/i;

/** The index just past the block closing the one opened at `open` (a `{`), skipping quoted strings. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < css.length; i += 1) {
    const c = css[i];
    if (quote !== null) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{') depth += 1;
    else if (c === '}') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return css.length;
}

/** `body` split at top-level semicolons (not inside strings or parentheses). */
function declarations(body: string): string[] {
  const parts: string[] = [];
  let quote: string | null = null;
  let parens = 0;
  let start = 0;
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i];
    if (quote !== null) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') parens += 1;
    else if (c === ')') parens -= 1;
    else if (c === ';' && parens === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

function observed(declaration: string): boolean {
  const colon = declaration.indexOf(':');
  return colon > 0 && OBSERVED.has(declaration.slice(0, colon).trim().toLowerCase());
}

/** `css` reduced to the rules' display, visibility and pointer-events declarations. */
export function visibilityRules(css: string): string {
  let out = '';
  let i = 0;
  while (i < css.length) {
    const open = css.indexOf('{', i);
    const semicolon = css.indexOf(';', i);
    if (open === -1) break;
    const prelude = css.slice(i, open).trim();
    // A statement at-rule before the next block (`@layer a, b;`, `@import ...;`) is kept as it is.
    if (prelude.startsWith('@') && semicolon !== -1 && semicolon < open) {
      out += `${css.slice(i, semicolon + 1).trim()}`;
      i = semicolon + 1;
      continue;
    }
    const end = blockEnd(css, open);
    const body = css.slice(open + 1, end - 1);
    if (NESTING_AT_RULES.test(prelude)) {
      const inner = visibilityRules(body);
      if (inner !== '') out += `${prelude}{${inner}}`;
    } else if (!prelude.startsWith('@')) {
      const kept = declarations(body).filter(observed);
      if (kept.length > 0) out += `${prelude}{${kept.join(';')}}`;
    }
    i = end;
  }
  return out;
}

/** Makes every <style> keep only what {@link visibilityRules} keeps; reading it back gives what was written. */
export function keepOnlyVisibilityStyles(): void {
  const innerHTML = Object.getOwnPropertyDescriptor(Element.prototype, 'innerHTML');
  if (innerHTML?.get === undefined || innerHTML.set === undefined) throw new Error('jsdom has no Element#innerHTML accessor');
  const { get, set } = innerHTML;
  const written = new WeakMap<Element, string>();
  Object.defineProperty(HTMLStyleElement.prototype, 'innerHTML', {
    configurable: true,
    enumerable: innerHTML.enumerable,
    get(this: HTMLStyleElement): string {
      return written.get(this) ?? (get.call(this) as string);
    },
    set(this: HTMLStyleElement, css: string) {
      written.set(this, String(css));
      set.call(this, visibilityRules(String(css)));
    },
  });
}
