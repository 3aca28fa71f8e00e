/**
 * Common subexpressions of a generated right-hand side, computed once (issue 24). A model's terms are
 * inlined where they are used (language/terms.ts), so a flow equation repeats them: Westwood+'s and
 * Reno's flowRhs repeat the loss terms' Math.pow calls tens of times (19-21 kB of code, 4-5 kB
 * without the repeats). The repeats cost each evaluation of the right-hand side, and TurboFan's
 * compile of the function (up to ~1 s of a background thread for one system). Each repeated group
 * that calls a Math function (or $sq, $cube, $p4) becomes a `const` computed once before the
 * statements; the same operations on the same operands give the same doubles, so every result is
 * the same bit for bit (the sha256 set of scripts/fingerprint.ts).
 *
 * It reads the code the emitter writes (language/expr.ts), not JavaScript in general: every operator
 * and conditional is parenthesised, a call is `name(...)`, there are no string literals and no
 * parentheses inside brackets. Everything a right-hand side calls is pure but the snapshot look-ups
 * (`past(...)`, in the prologue) and windows (`past.over(...)`), which stay where they are. A body it
 * does not recognise is returned as it is.
 */

/** A balanced group: `( ... )`, or a call `name( ... )` from the start of its name; with the groups directly inside it. */
interface Group {
  start: number;
  end: number;
  kids: Group[];
}

/** The top-level groups of `s`, or null when its parentheses do not balance. */
function groupsOf(s: string): Group[] | null {
  const top: Group[] = [];
  const open: Group[] = [];
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '(') {
      let start = i;
      while (start > 0 && /[\w.$]/.test(s[start - 1]!)) start--;
      open.push({ start, end: -1, kids: [] });
    } else if (ch === ')') {
      const g = open.pop();
      if (!g) return null;
      g.end = i + 1;
      (open.length > 0 ? open[open.length - 1]!.kids : top).push(g);
    }
  }
  return open.length === 0 ? top : null;
}

/** A group worth computing once when it repeats: it calls a pure function, and no snapshot look-up or window. */
const hoistable = (text: string): boolean => /Math\.|\$(sq|cube|p4)\(/.test(text) && !/past/.test(text);

/** `s[from, to)` with every group of `kids` whose text has a name replaced by it (not `self`, the group being defined). */
function printed(s: string, from: number, to: number, kids: readonly Group[], names: ReadonlyMap<string, string>, self?: Group): string {
  let out = '';
  let at = from;
  for (const g of kids) {
    out += s.slice(at, g.start);
    const name = g === self ? undefined : names.get(s.slice(g.start, g.end));
    if (name !== undefined) out += name;
    else {
      const head = s.indexOf('(', g.start) + 1;
      out += s.slice(g.start, head) + printed(s, head, g.end - 1, g.kids, names) + ')';
    }
    at = g.end;
  }
  return out + s.slice(at, to);
}

/** One statement `dy[...] = <expression>;` of a right-hand side. */
const STATEMENT = /^(dy\[[^\]()]+\] = )(.*);$/;

/**
 * The body with each hoistable group that occurs more than once in its statements computed once
 * (`const _h<k> = ...;` after the prologue, shorter groups first: a longer one may use them).
 */
export function hoistRepeated(body: string): string {
  const lines = body.split('\n');
  const first = lines.findIndex((l) => STATEMENT.test(l));
  if (first < 0) return body;
  const stmts: { line: number; lhs: string; rhs: string; groups: Group[] }[] = [];
  const count = new Map<string, { n: number; where: { rhs: string; g: Group } }>();
  const visit = (rhs: string, gs: readonly Group[]): void => {
    for (const g of gs) {
      const text = rhs.slice(g.start, g.end);
      const c = count.get(text);
      if (c) c.n++;
      else count.set(text, { n: 1, where: { rhs, g } });
      visit(rhs, g.kids);
    }
  };
  for (let i = first; i < lines.length; i++) {
    const m = STATEMENT.exec(lines[i]!);
    if (!m) continue;
    const groups = /["'`]/.test(m[2]!) ? null : groupsOf(m[2]!);
    if (!groups) return body;
    stmts.push({ line: i, lhs: m[1]!, rhs: m[2]!, groups });
    visit(m[2]!, groups);
  }
  // `(X)` around a group X is not hoisted itself: X is, and it prints as `(_h<k>)`.
  const wrapper = ({ rhs, g }: { rhs: string; g: Group }): boolean => rhs[g.start] === '(' && g.kids.length === 1 && g.kids[0]!.start === g.start + 1 && g.kids[0]!.end === g.end - 1;
  const repeated = [...count].filter(([text, c]) => c.n > 1 && hoistable(text) && !wrapper(c.where)).sort((a, b) => a[0].length - b[0].length);
  if (repeated.length === 0) return body;
  const names = new Map(repeated.map(([text], k) => [text, `_h${k}`]));
  const defs = repeated.map(([text, { where }]) => `const ${names.get(text)} = ${printed(where.rhs, where.g.start, where.g.end, [where.g], names, where.g)};`);
  for (const st of stmts) lines[st.line] = `${st.lhs}${printed(st.rhs, 0, st.rhs.length, st.groups, names)};`;
  lines.splice(first, 0, ...defs);
  return lines.join('\n');
}
