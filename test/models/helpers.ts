import { copyFileSync, writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { expect } from 'vitest';
import { InputError } from '../../src/errors.js';
import { DEFAULT_MODELS_DIR, loadModels } from '../../src/fluid/index.js';
import { tempDir } from '../helpers/tmp.js';

/** A models directory with the real bottleneck and one flow file `<id>.model.yaml` of the given text. */
export function dirWith(flowText: string, id = 'bad'): string {
  const d = tempDir('cclab-models-');
  copyFileSync(join(DEFAULT_MODELS_DIR, 'bottleneck.model.yaml'), join(d, 'bottleneck.model.yaml'));
  writeFileSync(join(d, `${id}.model.yaml`), flowText);
  return d;
}

/** The InputError loading that directory throws (fails the test if it loads). */
export function loadError(flowText: string, id = 'bad'): InputError {
  try {
    loadModels(dirWith(flowText, id));
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error('expected an InputError');
}
