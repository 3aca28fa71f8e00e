// AssemblyScript (0.28) port of bench/reference.ts's hold model: a binary heap of (time, seq) in two
// f64 arrays, 1024 keys, pop the earliest and push one a pseudo-random step later. The generator is
// the reference's (x * 48271 mod 2^31 - 1) in i64 arithmetic: the same numbers (all integers below
// 2^53), without AssemblyScript's software f64 remainder. Compiled by bench/experiments/wasm-hot-loop.ts.
const PENDING: i32 = 1024;
let time = new StaticArray<f64>(PENDING + 2);
let seqs = new StaticArray<f64>(PENDING + 2);
let n: i32 = 0;
let x: i64 = 12345;
let nextSeq: f64 = 0;

@inline function rand(): f64 { x = (x * 48271) % 2147483647; return <f64>x; }

function push(t: f64, s: f64): void {
  let i = ++n;
  while (i > 1) {
    const p = i >> 1;
    const tp = unchecked(time[p]);
    if (tp < t || (tp == t && unchecked(seqs[p]) < s)) break;
    unchecked(time[i] = tp);
    unchecked(seqs[i] = seqs[p]);
    i = p;
  }
  unchecked(time[i] = t);
  unchecked(seqs[i] = s);
}

function popTime(): f64 {
  const top = unchecked(time[1]);
  const t = unchecked(time[n]);
  const s = unchecked(seqs[n]);
  n--;
  let i = 1;
  for (;;) {
    let c = 2 * i;
    if (c > n) break;
    if (c < n) {
      const a = unchecked(time[c + 1]), b = unchecked(time[c]);
      if (a < b || (a == b && unchecked(seqs[c + 1]) < unchecked(seqs[c]))) c++;
    }
    const tc = unchecked(time[c]);
    if (t < tc || (t == tc && s < unchecked(seqs[c]))) break;
    unchecked(time[i] = tc);
    unchecked(seqs[i] = seqs[c]);
    i = c;
  }
  unchecked(time[i] = t);
  unchecked(seqs[i] = s);
  return top;
}

/** Same as holdModelRate's body: fill PENDING keys, then ops pop+push pairs; returns the sink. */
export function hold(ops: i32): f64 {
  n = 0; nextSeq = 0; x = 12345;
  for (let i = 0; i < PENDING; i++) push(rand() % 1000000, nextSeq++);
  let sink: f64 = 0;
  for (let k = 0; k < ops; k++) {
    const t = popTime();
    sink += t;
    push(t + (rand() % 1000000), nextSeq++);
  }
  return sink;
}
