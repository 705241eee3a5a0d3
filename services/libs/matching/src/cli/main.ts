#!/usr/bin/env node
// vigil-screen: the command-line face of @vigil/matching. This folder (src/cli) is the
// only part of the package allowed to use Node APIs; the core stays pure.
import { createInterface } from 'node:readline';
import { loadListsFromDir } from '@vigil/lists/node';
import { getAlgorithm } from '../algorithm.js';
import { explainMatch } from '../explain.js';
import { CliUsageError, parseArgs, USAGE, type CliCommand, type CliOptions } from './args.js';
import { screenLine } from './batch.js';

const VERSION = '0.1.0';

async function buildScreener(lists: string, options: CliOptions) {
  const algorithm = getAlgorithm(options.algorithm);
  const started = performance.now();
  const loaded = await loadListsFromDir(lists);
  const loadedAt = performance.now();
  const screener = algorithm.build(loaded.entities, options.config);
  const builtAt = performance.now();
  const perList = loaded.sources.map((s) => `${s.listId}=${s.entityCount}`).join(' ');
  process.stderr.write(
    `vigil-screen: ${loaded.entities.length} entities (${perList}) loaded in ${Math.round(loadedAt - started)} ms, ` +
      `${algorithm.name} index built in ${Math.round(builtAt - loadedAt)} ms` +
      (loaded.skipped.length ? `; skipped ${loaded.skipped.length} unrecognised file(s)` : '') +
      '\n',
  );
  if (loaded.entities.length === 0) process.stderr.write(`vigil-screen: warning: no list file recognised under ${lists}\n`);
  return screener;
}

async function batch(command: Extract<CliCommand, { command: 'batch' }>): Promise<void> {
  const screener = await buildScreener(command.lists, command.options);
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let pending = '';
  let count = 0;
  let errors = 0;
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const out = screenLine(screener, line, command.options.limit);
    if (out.error) {
      errors++;
      process.stderr.write(`vigil-screen: line ${count + 1}: ${out.error}\n`);
    }
    pending += JSON.stringify(out) + '\n';
    count++;
    if (pending.length > 1 << 16) {
      if (!process.stdout.write(pending)) await new Promise((resolve) => process.stdout.once('drain', resolve));
      pending = '';
    }
  }
  if (pending) process.stdout.write(pending);
  process.stderr.write(`vigil-screen: screened ${count} queries${errors ? `, ${errors} malformed` : ''}\n`);
}

async function explain(command: Extract<CliCommand, { command: 'explain' }>): Promise<void> {
  const screener = await buildScreener(command.lists, command.options);
  const query = { name: command.name, dob: command.dob, country: command.country, entityType: command.entityType as 'individual' | undefined };
  const matches = screener.screen(query, command.options.limit).filter((m) => m.score > 0);
  const lines = [`Query "${command.name}"${command.dob ? ` dob ${command.dob}` : ''}${command.country ? ` country ${command.country}` : ''}${command.entityType ? ` type ${command.entityType}` : ''} — ${screener.algorithm}`];
  if (matches.length === 0) lines.push('No candidate scored above 0.');
  matches.forEach((m, i) => lines.push('', explainMatch(m, i + 1)));
  process.stdout.write(lines.join('\n') + '\n');
}

async function main(argv: string[]): Promise<number> {
  let command: CliCommand;
  try {
    command = parseArgs(argv);
  } catch (err) {
    if (err instanceof CliUsageError) {
      process.stderr.write(`vigil-screen: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
  switch (command.command) {
    case 'help':
      process.stdout.write(USAGE);
      return 0;
    case 'version':
      process.stdout.write(`vigil-screen ${VERSION}\n`);
      return 0;
    case 'batch':
      await batch(command);
      return 0;
    case 'explain':
      await explain(command);
      return 0;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`vigil-screen: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
