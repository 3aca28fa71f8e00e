import { describe, expect, it } from 'vitest';
import { parse, View, type Spec } from 'vega';
import { packInlineData } from '../../src/page/vega.js';

/** Rows of a dataset as the Vega runtime sees them once the page has parsed it. */
async function rowsOf(spec: Spec, name: string): Promise<Record<string, unknown>[]> {
  const view = new View(parse(spec), { renderer: 'none' });
  await view.runAsync();
  const rows = view.data(name).map((r: Record<string, unknown>) => ({ ...r }));
  view.finalize();
  return rows;
}

describe('packInlineData: large inline datasets as CSV text that Vega parses back exactly', () => {
  const values = Array.from({ length: 200 }, (_, i) => ({ t: Math.round((1000 * i) / 7) / 1000, v: i % 3 === 0 ? null : 1e-7 * i ** 3, series: i % 2 ? 'packet cwnd' : 'closed form: a, "b"', on: i % 5 === 0 }));
  // Vega tags the records it ingests in place (a tuple id): each dataset gets its own copies.
  const spec = { data: [{ name: 'big', values }, { name: 'small', values: values.slice(0, 3).map((r) => ({ ...r })) }] } as unknown as Spec;
  const expected = values.map((r) => ({ ...r }));

  it('writes the large one as CSV with a parse map, leaves the small one as JSON, and reads back the same records', async () => {
    const packed = packInlineData(spec) as unknown as { data: { name: string; values: unknown; format?: unknown }[] };
    expect(typeof packed.data[0]!.values).toBe('string');
    expect(packed.data[0]!.format).toEqual({ type: 'csv', parse: { t: 'number', v: 'number', on: 'boolean' } });
    expect(packed.data[1]!.values).toEqual(expected.slice(0, 3));
    expect(JSON.stringify(packed).length).toBeLessThan(0.75 * JSON.stringify(spec).length);
    const back = (await rowsOf(packed as unknown as Spec, 'big')).map(({ t, v, series, on }) => ({ t, v, series, on }));
    expect(back).toEqual(expected);
  });

  it('keeps a dataset as JSON when CSV could not say it exactly (null text, nested values)', () => {
    const nullText = { data: [{ name: 'a', values: values.map((r, i) => ({ ...r, series: i === 7 ? null : r.series })) }] } as unknown as Spec;
    const nested = { data: [{ name: 'b', values: values.map((r) => ({ ...r, extra: [1] })) }] } as unknown as Spec;
    expect(packInlineData(nullText)).toEqual(nullText);
    expect(packInlineData(nested)).toEqual(nested);
  });
});
