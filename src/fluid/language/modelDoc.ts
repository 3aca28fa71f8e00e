import { basename } from 'node:path';
import type { ModelFile } from './modelFile.js';
import { toLatex } from './latex.js';

/** A model as the report shows it: metadata, units, and each equation in text and LaTeX. */
export interface ParsedModel {
  id: string;
  kind: 'flow' | 'bottleneck';
  file: string;
  title: string;
  citation: string;
  description: string;
  form: 'mean-field' | 'hybrid';
  states: { name: string; unit: string; doc: string; initial: string; discrete: boolean; min?: string; max?: string; guess?: string }[];
  params: { name: string; unit: string; doc: string; default?: number; min: number; max: number; fromScenario: boolean }[];
  outputs: { name: string; unit: string; expression: string; latex: string }[];
  /** `expression` is what the engine computes (terms substituted); `written` the file's text when it names terms; LaTeX of the written form. */
  equations: { state: string; expression: string; written?: string; latex: string }[];
  /** Named sub-expressions the equations use (models/README.md, "Terms"). */
  terms: { name: string; unit: string; expression: string; latex: string }[];
  events: { name: string; when: string; guard?: string; set: string[]; latex: string }[];
  /** The file as read (for compiling against a bottleneck). */
  source: ModelFile;
}

/** The report's view of a checked model file: each equation in its text and in LaTeX. */
export function describe(m: ModelFile): ParsedModel {
  const file = basename(m.path);
  const tex = (text: string, line: number): string => toLatex(text, file, line);
  return {
    id: m.id,
    kind: m.kind,
    file,
    title: m.title,
    citation: m.citation,
    description: m.description,
    form: m.form,
    states: m.states.map((s) => ({ name: s.name, unit: s.unit, doc: s.doc, initial: s.initial.text, discrete: s.discrete, min: s.min?.text, max: s.max?.text, guess: s.guess?.text })),
    params: m.params.map((p) => ({ name: p.name, unit: p.unit, doc: p.doc, default: p.default, min: p.min, max: p.max, fromScenario: p.scenario })),
    outputs: m.outputs.map((o) => ({ name: o.name, unit: o.unit, expression: o.text, latex: `${toLatex(o.name)} = ${tex(o.text, o.line)}` })),
    equations: m.equations.map((e) => ({
      state: e.state,
      expression: e.text,
      ...(e.written === undefined ? {} : { written: e.written }),
      latex: `\\frac{d${toLatex(e.state)}}{dt} = ${tex(e.written ?? e.text, e.line)}`,
    })),
    terms: m.terms.map((x) => ({ name: x.name, unit: x.unit, expression: x.text, latex: `${toLatex(x.name)} = ${tex(x.text, x.line)}` })),
    events: m.events.map((e) => ({
      name: e.name,
      when: e.when.text,
      guard: e.guard?.text,
      set: e.set.map((s) => `${s.state} = ${s.expr.text}`),
      latex: `${tex(e.when.text, e.when.line)} \\;\\Rightarrow\\; ${e.set.length === 0 ? '\\text{(restart)}' : e.set.map((s) => `${toLatex(s.state)} \\leftarrow ${tex(s.expr.written ?? s.expr.text, s.expr.line)}`).join(',\\ ')}`,
    })),
    source: m,
  };
}
