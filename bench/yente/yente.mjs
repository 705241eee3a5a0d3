// yente (OpenSanctions' match-making API, from PyPI) as this repository runs it for the anchor
// benchmark: installed once, pinned, into a virtual environment under .vigil/ (git-ignored; a new
// release cannot change the figures), indexed into a given OpenSearch node, served on loopback.
// Nothing of yente's code is kept in the repository.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const YENTE_VERSION = '5.5.0';

/** The venv's bin folder with the pinned yente, installed on first use (PyICU builds from source: minutes). */
export function ensureYente(root) {
  const venv = join(root, '.vigil', `yente-${YENTE_VERSION}`);
  const bin = join(venv, 'bin');
  if (existsSync(join(bin, 'yente'))) return bin;
  const python = ['python3', 'python'].find(
    (name) => spawnSync(name, ['--version'], { encoding: 'utf8' }).status === 0,
  );
  if (!python) throw new Error('yente needs Python 3.11 or later with its venv module (apt-get install python3-venv).');
  console.log(`Installing yente ${YENTE_VERSION} from PyPI into ${venv} (once)...`);
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(join(root, '.vigil'), { recursive: true });
  const steps = [
    [python, ['-m', 'venv', venv]],
    [join(bin, 'pip'), ['install', '--quiet', '--disable-pip-version-check', `yente==${YENTE_VERSION}`]],
  ];
  for (const [command, args] of steps) {
    const result = spawnSync(command, args, { stdio: 'inherit' });
    if (result.status !== 0) {
      rmSync(venv, { recursive: true, force: true });
      throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    }
  }
  return bin;
}

/** FtM schema name → its property names, from the followthemoney yente runs on. */
export function ftmSchemas(bin) {
  const script =
    'import json\nfrom followthemoney import model\n' +
    'print(json.dumps({s.name: sorted(s.properties) for s in model.schemata.values()}))';
  const result = spawnSync(join(bin, 'python'), ['-c', script], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`reading FtM schemata failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** yente's settings for this run: OpenSearch as its index, our manifest, no crontab or auto-update. */
export function yenteEnv({ opensearchUrl, indexName, manifest, dataPath, port }) {
  return {
    ...process.env,
    YENTE_INDEX_TYPE: 'opensearch',
    YENTE_INDEX_URL: opensearchUrl,
    YENTE_INDEX_NAME: indexName,
    YENTE_MANIFEST: manifest,
    YENTE_DATA_PATH: dataPath,
    YENTE_AUTO_REINDEX: 'false',
    YENTE_PORT: String(port),
    YENTE_HOST: '127.0.0.1',
    YENTE_LOG_JSON: 'false',
  };
}

/**
 * yente 5.5.0 writes its audit log into an index it never creates (it counts on the node creating
 * indices on first write); our node turns that off (`action.auto_create_index: false`, see
 * infra/scripts/opensearch.mjs). So create it first, with yente's own mapping, through yente.
 */
const ENSURE_AUDIT_LOG =
  'import asyncio\nfrom yente.provider import with_provider\n' +
  'from yente.search.audit_log import ensure_audit_log_index\n' +
  'async def main():\n    async with with_provider() as provider:\n' +
  '        await ensure_audit_log_index(provider)\nasyncio.run(main())';

/** Deletes this run's indices (every index named after YENTE_INDEX_NAME), through yente. */
export function clearIndex(bin, env, logPath) {
  const log = openSync(logPath, 'a');
  spawnSync(join(bin, 'yente'), ['clear-index'], { env, stdio: ['ignore', log, log] });
}

/** Runs yente's indexer to completion; its log goes to `logPath`. Returns seconds taken. */
export function reindex(bin, env, logPath) {
  const started = performance.now();
  const log = openSync(logPath, 'a');
  const prepared = spawnSync(join(bin, 'python'), ['-c', ENSURE_AUDIT_LOG], { env, stdio: ['ignore', log, log] });
  if (prepared.status !== 0) throw new Error(`creating yente's audit log index failed; see ${logPath}`);
  const result = spawnSync(join(bin, 'yente'), ['reindex'], { env, stdio: ['ignore', log, log] });
  if (result.status !== 0)
    throw new Error(`yente reindex failed (exit ${result.status ?? result.signal}); see ${logPath}`);
  return (performance.now() - started) / 1000;
}

/** Starts yente's API and waits until it answers /readyz; stop() ends that process only. */
export async function serve(bin, env, logPath, port) {
  const log = openSync(logPath, 'a');
  const child = spawn(join(bin, 'yente'), ['serve'], { env, stdio: ['ignore', log, log] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`yente serve exited (${child.exitCode}); see ${logPath}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`yente did not answer /readyz within 180 s; see ${logPath}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  const stop = () =>
    new Promise((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return { url, pid: child.pid, stop };
}
