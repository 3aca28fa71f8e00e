import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { writeFileAtomic } from '../../src/io/atomicWrite.js';
import { asUserIo, checkOutDir } from '../../src/io/outDir.js';
import { PACKAGE_ROOT } from '../../src/io/packageRoot.js';
import { sourceClosure } from '../../src/io/sourceClosure.js';
import { readUserFile } from '../../src/io/userFile.js';
import { parseYaml } from '../../src/io/yaml.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = () => tempDir('cclab-io-');
const inputError = (f: () => unknown): InputError => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error('expected an InputError');
};

describe('writeFileAtomic', () => {
  it('writeFileAtomic(path, data) creates the folders, replaces the file and leaves no temp file behind', () => {
    const d = tmp();
    const p = join(d, 'a', 'b', 'out.txt');
    writeFileAtomic(p, 'one');
    writeFileAtomic(p, 'two');
    expect(readFileSync(p, 'utf8')).toBe('two');
    writeFileAtomic(p, ['th', 're', 'e']);
    expect(readFileSync(p, 'utf8')).toBe('three');
    expect(readdirSync(join(d, 'a', 'b'))).toEqual(['out.txt']);
  });
  it('writeFileAtomic keeps the old file whole when writing fails (a chunk that throws) and removes its temp file', () => {
    const d = tmp();
    const p = join(d, 'out.txt');
    writeFileAtomic(p, 'old');
    function* chunks() {
      yield 'new, half';
      throw new Error('disk full');
    }
    expect(() => writeFileAtomic(p, chunks())).toThrow('disk full');
    expect(readFileSync(p, 'utf8')).toBe('old');
    expect(readdirSync(d)).toEqual(['out.txt']);
  });
});

describe('readUserFile', () => {
  it('readUserFile(path, field, max) reads a regular file under the limit and names the field otherwise', () => {
    const d = tmp();
    writeFileSync(join(d, 'ok.yaml'), 'a: 1\n');
    expect(readUserFile(join(d, 'ok.yaml'), '--scenario', 100)).toBe('a: 1\n');
    expect(inputError(() => readUserFile(join(d, 'none.yaml'), '--scenario', 100)).message).toBe(`--scenario cannot read file '${join(d, 'none.yaml')}' (ENOENT)`);
    expect(inputError(() => readUserFile(d, '--scenario', 100)).problem).toMatch(/is not a regular file \(a directory\)/);
    expect(inputError(() => readUserFile(join(d, 'ok.yaml'), '--recipe', 3)).problem).toBe(`'${join(d, 'ok.yaml')}' is 5 bytes, more than the 3 bytes accepted`);
  });
});

describe('checkOutDir and asUserIo', () => {
  it('checkOutDir(dir, flag) accepts a writable folder or one that can be created, and refuses a file in the way', () => {
    const d = tmp();
    expect(() => checkOutDir(d, '--out')).not.toThrow();
    expect(() => checkOutDir(join(d, 'new', 'deeper'), '--out')).not.toThrow();
    writeFileSync(join(d, 'file'), 'x');
    expect(inputError(() => checkOutDir(join(d, 'file'), '--out')).message).toBe(`--out '${join(d, 'file')}' exists and is not a folder`);
    expect(inputError(() => checkOutDir(join(d, 'file', 'sub'), '--out')).problem).toMatch(/is not a folder$/);
  });
  it.skipIf(process.getuid?.() === 0)('checkOutDir refuses a folder the user may not write', () => {
    const d = tmp();
    mkdirSync(join(d, 'ro'));
    chmodSync(join(d, 'ro'), 0o500);
    expect(inputError(() => checkOutDir(join(d, 'ro'), '--out')).problem).toMatch(/cannot write .* \(EACCES\)/);
  });
  it('asUserIo(flag, io) turns a file-system error into an InputError naming the flag, and lets other errors through', async () => {
    const d = tmp();
    writeFileSync(join(d, 'file'), 'x');
    const e = inputError(() => asUserIo('--out', () => mkdirSync(join(d, 'file', 'sub'))));
    expect(e.message).toMatch(/^--out cannot mkdir '.*file\/sub' \(ENOTDIR\)$/);
    await expect(asUserIo('--out', async () => mkdirSync(join(d, 'file', 'x')))).rejects.toBeInstanceOf(InputError);
    expect(() => asUserIo('--out', () => {
      throw new RangeError('a bug');
    })).toThrow(RangeError);
    expect(asUserIo('--out', () => 42)).toBe(42);
  });
});

describe('package files', () => {
  it('PACKAGE_ROOT holds package.json, models/ and src/', () => {
    expect(JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).name).toBe('cclab');
    expect(readdirSync(join(PACKAGE_ROOT, 'models'))).toContain('bottleneck.model.yaml');
  });
  it('sourceClosure(entry) follows static and literal dynamic imports to .ts files (the fluid cache key reaches the compiler and mathjs\'s users)', () => {
    const rel = sourceClosure(join(PACKAGE_ROOT, 'src', 'fluid', 'compiler', 'compileFiles.ts')).map((f) => f.slice(PACKAGE_ROOT.length + 1));
    expect(rel).toEqual(expect.arrayContaining(['src/fluid/compiler/compileFiles.ts', 'src/fluid/compiler/compileSystem.ts', 'src/fluid/language/expr.ts', 'src/fluid/language/modelFile.ts', 'src/fluid/compiler/assemble.ts']));
    expect(rel.every((f) => f.endsWith('.ts'))).toBe(true);
  });
  it('parseYaml(text) parses YAML (and JSON, a subset) on first use', () => {
    expect(parseYaml('a: [1, 2]\nb: x\n')).toEqual({ a: [1, 2], b: 'x' });
    expect(parseYaml('{"a": 1}')).toEqual({ a: 1 });
  });
});
