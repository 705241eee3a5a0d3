// A real single-node OpenSearch for tests, benchmarks and `INDEX_ENGINE=opensearch npm start`,
// built from Maven Central alone: no tarball, no Docker, nothing but the registries this
// project's machines reach. OpenSearch (Apache-2.0) ships its server and its modules there as
// plain jars; what a distribution adds around them (the modules/ layout with a descriptor per
// module, a config folder, the JVM flags of its start script) is written here.
//
// Maven resolves the pinned version into .vigil/opensearch/<version>/home (git-ignored), once; a
// second start reuses it and takes seconds. Each start gets a node of its own in a temporary
// folder (config, data, logs), removed by stop(). Only Node built-ins are imported.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, fail as exitWith, log } from './bootstrap.mjs';
import { timed } from './machine.mjs';

/** 2.19 is the last line that runs on Java 17 (3.x needs 21); 2.19.6 is its newest on Maven Central. */
export const OPENSEARCH_VERSION = '2.19.6';
export const INSTALL_HINT = 'apt-get install -y openjdk-17-jdk-headless maven';
/** The system user the node runs as when we are root: OpenSearch refuses to run as root. */
export const OPENSEARCH_USER = 'opensearch';

const DEPENDENCY_PLUGIN = '3.8.1';
const CACHE_DIR = join(ROOT, '.vigil', 'opensearch');

/**
 * The modules a node loads, each a folder of jars under home/modules. transport-netty4 is the
 * HTTP and transport layer (a node without it has no network); analysis-common brings the
 * analyzers and token filters an index of names needs (asciifolding, edge_ngram, …).
 */
const MODULES = [
  {
    name: 'transport-netty4',
    artifact: 'org.opensearch.plugin:transport-netty4-client',
    classname: 'org.opensearch.transport.Netty4Plugin',
    description: 'HTTP and transport over Netty 4',
    // Plugin code runs under OpenSearch's security manager with only what its policy grants;
    // Netty opens and accepts sockets and names its own threads' class loaders.
    policy: [
      'permission java.net.SocketPermission "*", "accept,connect";',
      'permission java.io.FilePermission "/proc/sys/net/core/somaxconn", "read";',
      'permission java.lang.RuntimePermission "*", "setContextClassLoader";',
      'permission java.lang.RuntimePermission "getClassLoader";',
      'permission java.util.PropertyPermission "sun.nio.ch.bugLevel", "write";',
    ],
  },
  {
    name: 'analysis-common',
    artifact: 'org.opensearch.plugin:analysis-common',
    classname: 'org.opensearch.analysis.common.CommonAnalysisPlugin',
    description: 'the common analyzers, tokenizers and token filters',
  },
];

/**
 * The server's own jars beyond what its POM pulls in: the distribution's lib/ also holds the
 * plugin class loader (modules cannot load without it) and the three dependencies the POM marks
 * optional (log4j-core for logging, the geo libraries for geo_shape).
 * @param {string} version
 */
const coreExtras = (version) => [
  `org.opensearch:opensearch-plugin-classloader:${version}`,
  'org.apache.logging.log4j:log4j-core:2.25.4',
  'org.locationtech.spatial4j:spatial4j:0.7',
  'org.locationtech.jts:jts-core:1.15.0',
];

/** The JVM flags of OpenSearch's own launcher that matter here, and a heap for a 2-core, 24 GB machine. */
function jvmOptions({ heap, tmp, javaMajor }) {
  return [
    `-Xms${heap}`,
    `-Xmx${heap}`,
    '-Xss1m',
    '-XX:+UseG1GC',
    '-XX:G1ReservePercent=25',
    '-XX:InitiatingHeapOccupancyPercent=30',
    '-XX:-OmitStackTraceInFastThrow',
    '-XX:+ShowCodeDetailsInExceptionMessages',
    `-Djava.io.tmpdir=${tmp}`,
    '-Djava.awt.headless=true',
    '-Dfile.encoding=UTF-8',
    '-Djna.nosys=true',
    // Date parsing in 2.x is written against the COMPAT locale data.
    '-Djava.locale.providers=SPI,COMPAT',
    '-Dio.netty.noUnsafe=true',
    '-Dio.netty.noKeySetOptimization=true',
    '-Dio.netty.recycler.maxCapacityPerThread=0',
    '-Dio.netty.allocator.numDirectArenas=0',
    '-Dlog4j.shutdownHookEnabled=false',
    '-Dlog4j2.disable.jmx=true',
    // 2.x installs a security manager, which Java 18+ allows only when asked.
    ...(javaMajor >= 18 ? ['-Djava.security.manager=allow'] : []),
  ];
}

/**
 * OPENSEARCH_URL when it answers; otherwise a node of our own on 127.0.0.1:`port`, installed from
 * Maven Central on first use. Every step prints its duration.
 * @param {{ port?: number, url?: string, heap?: string, version?: string, fail?: (message: string) => never }} [options]
 * @returns {Promise<{ url: string, stop: () => Promise<void>, pid?: number, home?: string, nodeDir?: string }>}
 */
export async function ensureOpenSearch({
  port = 9200,
  url = process.env.OPENSEARCH_URL,
  heap = '512m',
  version = OPENSEARCH_VERSION,
  fail = exitWith,
} = {}) {
  if (url) {
    const answer = await opensearchAnswers(url);
    if (answer) {
      log(`OpenSearch: using ${url} (${answer})`);
      return { url, stop: async () => {} };
    }
    log(`OpenSearch: ${url} does not answer; starting a node of our own instead.`);
  }
  const own = `http://127.0.0.1:${port}`;
  const running = await opensearchAnswers(own);
  if (running) {
    // Left running by an earlier start that did not stop it; reuse it.
    log(`OpenSearch: a node already answers on ${own} (${running})`);
    return { url: own, stop: async () => {} };
  }
  const javaMajor = timed('OpenSearch: check java and mvn', () => checkToolchain(fail));
  const home = await timed('OpenSearch: install from Maven Central', () => install(version, fail));
  return timed('OpenSearch: start the node', () => startNode({ home, port, heap, javaMajor, fail }));
}

/** The Java major version, after checking Java >= 17 and Maven are there; else `fail` with the install command. */
export function checkToolchain(fail = exitWith) {
  const java = spawnSync(javaBinary(), ['-version'], { encoding: 'utf8' });
  if (java.error || java.status !== 0)
    fail(`OpenSearch needs Java 17 or newer and there is no \`java\`. Install it with \`${INSTALL_HINT}\`.`);
  const major = javaMajorOf(`${java.stderr}${java.stdout}`);
  if (!major || major < 17)
    fail(
      `OpenSearch ${OPENSEARCH_VERSION} needs Java 17 or newer; \`java -version\` says ${major ?? 'nothing we can read'}. Install it with \`${INSTALL_HINT}\`.`,
    );
  // The 2.x server relies on the security manager, which Java 24 removed.
  if (major >= 24)
    fail(
      `OpenSearch ${OPENSEARCH_VERSION} runs on Java 17 to 23; \`java\` is ${major}. Point JAVA_HOME at a Java 17 (${INSTALL_HINT}).`,
    );
  const mvn = spawnSync('mvn', ['-v'], { encoding: 'utf8' });
  if (mvn.error || mvn.status !== 0)
    fail(
      `OpenSearch is installed from Maven Central with Maven, and there is no \`mvn\`. Install it with \`${INSTALL_HINT}\`.`,
    );
  return major;
}

/** `java -version` prints `openjdk version "17.0.15"` (or `"1.8.0_402"` for Java 8). */
export function javaMajorOf(versionText) {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionText);
  if (!match) return undefined;
  const first = Number(match[1]);
  return first === 1 ? Number(match[2]) : first;
}

function javaBinary() {
  return process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
}

/**
 * The node's home (lib/, modules/, plugins/), resolved by Maven on first use. Built in a folder of
 * its own and renamed into place, so a run stopped half-way leaves nothing that looks installed.
 */
async function install(version, fail) {
  const home = join(CACHE_DIR, version, 'home');
  if (existsSync(join(home, 'installed.json'))) {
    const { bytes, jars } = JSON.parse(readFileSync(join(home, 'installed.json'), 'utf8'));
    log(`OpenSearch: ${version} already installed in .vigil/opensearch/${version} (${jars} jars, ${megabytes(bytes)})`);
    return home;
  }
  const staging = join(CACHE_DIR, version, `staging-${randomUUID()}`);
  const build = join(staging, 'maven');
  const stagingHome = join(staging, 'home');
  writePoms({ build, home: stagingHome, version });
  log(`OpenSearch: resolving ${version} and its modules from Maven Central (mvn dependency:copy-dependencies)...`);
  const started = performance.now();
  // Asynchronous: the event loop keeps serving (jest's timers, a caller's other servers) meanwhile.
  const { status, output } = await runCaptured('mvn', [
    '-B',
    '-q',
    '-f',
    join(build, 'pom.xml'),
    'dependency:copy-dependencies',
  ]);
  if (status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    fail(`mvn could not resolve OpenSearch ${version} (exit ${status}):\n${output.slice(-3000)}`);
  }
  const lib = new Set(readdirSync(join(stagingHome, 'lib')));
  for (const module of MODULES) {
    const dir = join(stagingHome, 'modules', module.name);
    // A jar the server already has must not be loaded twice: OpenSearch refuses ("jar hell").
    for (const jar of readdirSync(dir)) if (lib.has(jar)) rmSync(join(dir, jar));
    writeFileSync(join(dir, 'plugin-descriptor.properties'), descriptor(module, version));
    if (module.policy)
      writeFileSync(join(dir, 'plugin-security.policy'), `grant {\n  ${module.policy.join('\n  ')}\n};\n`);
  }
  // The node checks that these exist: bin/ for path.home, plugins/ for the plugins it would load.
  mkdirSync(join(stagingHome, 'bin'), { recursive: true });
  mkdirSync(join(stagingHome, 'plugins'), { recursive: true });
  const { bytes, jars } = sizeOf(stagingHome);
  const seconds = (performance.now() - started) / 1000;
  writeFileSync(join(stagingHome, 'installed.json'), `${JSON.stringify({ version, jars, bytes, seconds }, null, 2)}\n`);
  try {
    renameSync(stagingHome, home);
  } catch (error) {
    // Another start installed the same version meanwhile: use that one.
    if (!existsSync(join(home, 'installed.json'))) throw error;
  }
  rmSync(staging, { recursive: true, force: true });
  log(`OpenSearch: installed ${version} (${jars} jars, ${megabytes(bytes)}) in ${seconds.toFixed(1)} s`);
  return home;
}

/**
 * One reactor build, three outputs: the server's jars into lib/ and each module's into its own
 * folder. Generated rather than kept in the repository: the version above is the only pin, and
 * a POM that builds nothing would only invite edits that drift from it.
 */
function writePoms({ build, home, version }) {
  const coordinates = (spec) => {
    const [groupId, artifactId, v] = spec.split(':');
    return `<dependency><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>${v}</version></dependency>`;
  };
  const child = (name, dependencies, outputDirectory) => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>vigil.opensearch</groupId><artifactId>node</artifactId><version>${version}</version></parent>
  <artifactId>${name}</artifactId>
  <packaging>pom</packaging>
  <dependencies>
    ${dependencies.map(coordinates).join('\n    ')}
  </dependencies>
  <build><plugins><plugin>
    <groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId>
    <configuration><outputDirectory>${outputDirectory}</outputDirectory><includeScope>runtime</includeScope></configuration>
  </plugin></plugins></build>
</project>
`;
  const parts = [
    {
      name: 'server',
      dependencies: [`org.opensearch:opensearch:${version}`, ...coreExtras(version)],
      out: join(home, 'lib'),
    },
    ...MODULES.map((module) => ({
      name: module.name,
      dependencies: [`${module.artifact}:${version}`],
      out: join(home, 'modules', module.name),
    })),
  ];
  mkdirSync(build, { recursive: true });
  writeFileSync(
    join(build, 'pom.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>vigil.opensearch</groupId>
  <artifactId>node</artifactId>
  <version>${version}</version>
  <packaging>pom</packaging>
  <modules>
    ${parts.map((part) => `<module>${part.name}</module>`).join('\n    ')}
  </modules>
  <build><pluginManagement><plugins><plugin>
    <groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>${DEPENDENCY_PLUGIN}</version>
  </plugin></plugins></pluginManagement></build>
</project>
`,
  );
  for (const part of parts) {
    mkdirSync(join(build, part.name), { recursive: true });
    writeFileSync(join(build, part.name, 'pom.xml'), child(part.name, part.dependencies, part.out));
  }
}

function descriptor(module, version) {
  return [
    `name=${module.name}`,
    `description=${module.description}`,
    `version=${version}`,
    `opensearch.version=${version}`,
    'java.version=11',
    `classname=${module.classname}`,
    '',
  ].join('\n');
}

/** A node of its own in a temporary folder: config, data and logs, owned by the user it runs as. */
async function startNode({ home: installed, port, heap, javaMajor, fail }) {
  const owner = process.getuid?.() === 0 ? systemUser(fail) : undefined;
  const home = owner ? homeReadableBy(owner, installed, fail) : installed;
  const nodeDir = mkdtempSync(join(tmpdir(), 'vigil-opensearch-'));
  const dirs = Object.fromEntries(['config', 'data', 'logs', 'tmp'].map((name) => [name, join(nodeDir, name)]));
  for (const dir of Object.values(dirs)) mkdirSync(dir);
  const options = jvmOptions({ heap, tmp: dirs.tmp, javaMajor });
  writeConfig(dirs, { port, options });
  // The node writes its keystore into config/ and its temporary files into tmp/.
  if (owner) for (const path of [nodeDir, ...Object.values(dirs)]) chownSync(path, owner.uid, owner.gid);

  const consoleLog = join(dirs.logs, 'console.log');
  const out = openSync(consoleLog, 'a');
  if (owner) chownSync(consoleLog, owner.uid, owner.gid);
  const child = spawn(
    javaBinary(),
    [
      ...options,
      `-Dopensearch.path.home=${home}`,
      `-Dopensearch.path.conf=${dirs.config}`,
      // The server accepts only its own packagings' names; ours is laid out like the tar one.
      '-Dopensearch.distribution.type=tar',
      '-Dopensearch.bundled_jdk=false',
      '-cp',
      `${join(home, 'lib')}/*`,
      'org.opensearch.bootstrap.OpenSearch',
    ],
    {
      cwd: nodeDir,
      stdio: ['ignore', out, out],
      env: {
        PATH: process.env.PATH,
        HOME: dirs.tmp,
        ...(process.env.JAVA_HOME ? { JAVA_HOME: process.env.JAVA_HOME } : {}),
      },
      ...(owner ?? {}),
    },
  );
  closeSync(out);
  let exited = null;
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve((exited = code ?? signal))));
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const removeNodeDir = () => rmSync(nodeDir, { recursive: true, force: true });
  while (exited === null) {
    if (await healthy(url)) {
      const seconds = (performance.now() - started) / 1000;
      log(
        `OpenSearch: node on ${url} answered after ${seconds.toFixed(1)} s (pid ${child.pid}, heap ${heap}, in ${nodeDir})`,
      );
      return {
        url,
        pid: child.pid,
        home,
        nodeDir,
        stop: async () => {
          if (exited === null) {
            child.kill('SIGTERM');
            const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
            await exit;
            clearTimeout(killer);
          }
          removeNodeDir();
        },
      };
    }
    if (performance.now() - started > 180_000) {
      child.kill('SIGKILL');
      await exit;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const tail = readFileSync(consoleLog, 'utf8')
    .split('\n')
    .filter((line) => !/^\s+at /.test(line))
    .slice(-25)
    .join('\n');
  removeNodeDir();
  fail(
    `OpenSearch did not come up on ${url} (${exited === null ? 'no answer in 180 s' : `exited ${exited}`}). The node said:\n${tail}`,
  );
}

function writeConfig(dirs, { port, options }) {
  writeFileSync(
    join(dirs.config, 'opensearch.yml'),
    [
      '# Written by infra/scripts/opensearch.mjs for one test node; removed when it stops.',
      'cluster.name: vigil',
      'node.name: vigil-1',
      `path.data: ${dirs.data}`,
      `path.logs: ${dirs.logs}`,
      // Loopback only: it also keeps the node in development mode, where the production bootstrap
      // checks (file descriptors, vm.max_map_count) warn instead of refusing to start.
      'network.host: 127.0.0.1',
      `http.port: ${port}`,
      // Transport is only node-to-node; any free port of the range will do.
      'transport.port: 9300-9399',
      'discovery.type: single-node',
      // A test machine's disk may be mostly full: never turn indices read-only for that.
      'cluster.routing.allocation.disk.threshold_enabled: false',
      // Queries name their indices; nothing here should create one by accident.
      'action.auto_create_index: false',
      '',
    ].join('\n'),
  );
  // What the node was started with, for whoever reads the folder (the launcher reads no file).
  writeFileSync(join(dirs.config, 'jvm.options'), `${options.join('\n')}\n`);
  writeFileSync(
    join(dirs.config, 'log4j2.properties'),
    [
      'status = error',
      'appender.console.type = Console',
      'appender.console.name = console',
      'appender.console.layout.type = PatternLayout',
      'appender.console.layout.pattern = [%d{ISO8601}][%-5p][%-25c{1.}] [%node_name]%marker %m%n',
      'rootLogger.level = warn',
      'rootLogger.appenderRef.console.ref = console',
      // "started" and the modules loaded: enough to read a start-up in console.log.
      'logger.node.name = org.opensearch.node.Node',
      'logger.node.level = info',
      'logger.plugins.name = org.opensearch.plugins.PluginsService',
      'logger.plugins.level = info',
      '',
    ].join('\n'),
  );
}

/** The `opensearch` system user (created when missing), as Debian's own packages run servers. */
function systemUser(fail) {
  const id = (flag) => spawnSync('id', [flag, OPENSEARCH_USER], { encoding: 'utf8' });
  if (id('-u').status !== 0) {
    const created = spawnSync(
      'useradd',
      [
        '--system',
        '--user-group',
        '--no-create-home',
        '--home-dir',
        '/nonexistent',
        '--shell',
        '/usr/sbin/nologin',
        OPENSEARCH_USER,
      ],
      { encoding: 'utf8' },
    );
    if (created.status !== 0)
      fail(
        `OpenSearch refuses to run as root, and the user ${OPENSEARCH_USER} could not be created: ${created.stderr}`,
      );
    log(`OpenSearch: created the system user ${OPENSEARCH_USER} to run the node (it refuses to run as root)`);
  }
  return { uid: Number(id('-u').stdout.trim()), gid: Number(id('-g').stdout.trim()) };
}

/**
 * The home as the node's user can read it. A checkout under a folder closed to others (/root,
 * say) is not: then a world-readable copy in the system's temporary folder, made once per version.
 */
function homeReadableBy(owner, home, fail) {
  const readable = (dir) =>
    spawnSync('test', ['-r', join(dir, 'installed.json')], { uid: owner.uid, gid: owner.gid }).status === 0;
  if (readable(home)) return home;
  const { version } = JSON.parse(readFileSync(join(home, 'installed.json'), 'utf8'));
  const copy = join(tmpdir(), `vigil-opensearch-home-${version}`);
  if (!existsSync(join(copy, 'installed.json'))) {
    const staging = `${copy}-${randomUUID()}`;
    cpSync(home, staging, { recursive: true });
    chmodSync(staging, 0o755);
    for (const entry of readdirSync(staging, { withFileTypes: true, recursive: true }))
      chmodSync(join(entry.parentPath ?? entry.path, entry.name), entry.isDirectory() ? 0o755 : 0o644);
    try {
      renameSync(staging, copy);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(join(copy, 'installed.json'))) throw error;
    }
    log(`OpenSearch: the user ${OPENSEARCH_USER} cannot read ${home}; the node runs from a copy in ${copy}`);
  }
  if (!readable(copy))
    fail(`The user ${OPENSEARCH_USER} can read neither ${home} nor ${copy}; set OPENSEARCH_URL to a running node.`);
  return copy;
}

/** The answer of GET / when it is OpenSearch ("OpenSearch 2.19.6"), else undefined. */
async function opensearchAnswers(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    if (!response.ok) return undefined;
    const body = await response.json();
    return body?.version?.distribution === 'opensearch' ? `OpenSearch ${body.version.number}` : undefined;
  } catch {
    return undefined;
  }
}

/** The node answers and its cluster can take requests (single node: yellow at least). */
async function healthy(url) {
  try {
    const response = await fetch(`${url}/_cluster/health?wait_for_status=yellow&timeout=1s`, {
      signal: AbortSignal.timeout(2000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

function runCaptured(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', (error) => resolve({ status: -1, output: String(error) }));
    child.once('exit', (code, signal) => resolve({ status: code ?? signal, output }));
  });
}

function sizeOf(dir) {
  let bytes = 0;
  let jars = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    bytes += statSync(join(entry.parentPath ?? entry.path, entry.name)).size;
    if (entry.name.endsWith('.jar')) jars++;
  }
  return { bytes, jars };
}

const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// `node infra/scripts/opensearch.mjs [port]`: a node for a developer, until Ctrl-C.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const node = await ensureOpenSearch({ port: Number(process.argv[2] ?? 9200) });
  log(`OpenSearch: ${node.url} is up; Ctrl-C stops it.`);
  const stop = () => node.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
