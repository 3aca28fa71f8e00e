import { describe, expect, it } from 'vitest';
import { agreementSuite } from './ns3-agreement.js';

agreementSuite('normal', describe, it, expect);
