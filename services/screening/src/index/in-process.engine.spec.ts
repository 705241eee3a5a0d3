import { candidateIndexContract } from './candidate-index.contract.js';
import { InProcessEngine } from './in-process.engine.js';

candidateIndexContract('in-process', async () => new InProcessEngine());
