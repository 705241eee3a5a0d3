// Argument parsing for vigil-screen, kept apart from I/O so it can be unit-tested.
import type { MatchingConfig } from '../config.js';
import { DEFAULT_ALGORITHM } from '../algorithm.js';

export type CliCommand =
  | { command: 'batch'; lists: string; options: CliOptions }
  | { command: 'explain'; lists: string; name: string; dob?: string; country?: string; entityType?: string; options: CliOptions }
  | { command: 'help' }
  | { command: 'version' };

export type CliOptions = { algorithm: string; limit: number; config: Partial<MatchingConfig> };

export const USAGE = `Usage:
  vigil-screen batch --lists <dir> [options]      JSON lines on stdin → JSON lines on stdout
  vigil-screen explain --lists <dir> [options] [--dob YYYY[-MM[-DD]]] [--country X] [--type T] "<name>"

Options:
  --algorithm <name>     matching algorithm (default ${DEFAULT_ALGORITHM})
  --limit <n>            results per query (default 10)
  --high <score>         HIGH_SCORE, blocked at or above (default 0.85)
  --medium <score>       MEDIUM_SCORE, review at or above (default 0.6)
  --lev-max <n>          LEV_DISTANCE_MAX (default 2)
  --sim <x>              DB_SIM_THRESHOLD (default 0.45)
  --trigram-hits <n>     TRIGRAM_HITS_MIN (default 2)
  --candidates <n>       candidates scored per query (default 40)
`;

export class CliUsageError extends Error {}

const NUMERIC: Record<string, keyof MatchingConfig> = {
  '--high': 'highScore',
  '--medium': 'mediumScore',
  '--lev-max': 'levDistanceMax',
  '--sim': 'dbSimThreshold',
  '--trigram-hits': 'trigramHitsMin',
  '--candidates': 'candidateLimit',
};

export function parseArgs(argv: readonly string[]): CliCommand {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return { command: 'help' };
  if (command === '--version' || command === 'version') return { command: 'version' };
  if (command !== 'batch' && command !== 'explain') throw new CliUsageError(`unknown command "${command}"`);
  const options: CliOptions = { algorithm: DEFAULT_ALGORITHM, limit: 10, config: {} };
  const positional: string[] = [];
  let lists: string | undefined;
  let dob: string | undefined;
  let country: string | undefined;
  let entityType: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new CliUsageError(`${arg} needs a value`);
      return v;
    };
    const number = () => {
      const v = Number(value());
      if (!Number.isFinite(v) || v < 0) throw new CliUsageError(`${arg} needs a non-negative number`);
      return v;
    };
    if (arg === '--lists') lists = value();
    else if (arg === '--algorithm') options.algorithm = value();
    else if (arg === '--limit') options.limit = Math.floor(number());
    else if (arg === '--dob') dob = value();
    else if (arg === '--country') country = value();
    else if (arg === '--type') entityType = value();
    else if (NUMERIC[arg]) options.config[NUMERIC[arg]!] = number();
    else if (arg.startsWith('--')) throw new CliUsageError(`unknown option ${arg}`);
    else positional.push(arg);
  }
  if (!lists) throw new CliUsageError('--lists <dir> is required');
  if (command === 'batch') {
    if (positional.length) throw new CliUsageError(`unexpected argument "${positional[0]}"`);
    return { command, lists, options };
  }
  if (positional.length !== 1) throw new CliUsageError('explain takes exactly one name (quote it)');
  return { command, lists, name: positional[0]!, dob, country, entityType, options };
}
