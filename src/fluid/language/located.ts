/**
 * A piece of a model file as written (an expression, a condition, a term) and the line it starts on:
 * what the parser keeps, and what every later error names (`file.model.yaml:14: dW/dt ...`).
 */
export interface Located {
  text: string;
  line: number;
}
