// Checks the deployment files the way a cluster or `docker compose up` would
// reject them, without either being present: every YAML file under k8s/ and
// docker-compose.yml is parsed and cross-checked (probes, resources, references
// between kustomizations, patches and their targets, HPAs, Services, compose
// dependencies, the Dockerfile's workspace list). When kubectl (or kustomize) is
// on the PATH, the overlays are also rendered and the applied result checked.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  containersOf,
  describeDoc,
  isKustomizationFile,
  kustomizationFileIn,
  listYamlFiles,
  matchesLabelSelector,
  matchesTarget,
  parseQuantity,
  podSpecOf,
  pointerExists,
  readYaml,
  readYamlDocuments,
  referencedPaths,
  relative,
  repoRoot,
  resolveKustomization,
  WORKLOAD_KINDS,
  type Container,
  type Doc,
  type Kustomization,
  type Manifest,
  type Probe,
  type Resolved,
} from './manifests.js';

const SERVICES = ['gateway', 'auth', 'screening', 'monitoring', 'billing', 'audit'] as const;
/** Every service owns a schema (the gateway: quota leases, idempotency claims), so each has a migrate.js. */
const WITH_SCHEMA = SERVICES;
const WEB_APPS = ['web', 'admin-web'] as const;
/** Overlays that must run with nothing created beforehand (they bring their own secrets and infrastructure). */
const SELF_CONTAINED_OVERLAYS = ['dev'];
const PHASE_LABEL = 'vigil.dev/phase';

const k8sDir = path.join(repoRoot, 'k8s');
const baseDir = path.join(k8sDir, 'base');
const overlaysDir = path.join(k8sDir, 'overlays');
const composeFile = path.join(repoRoot, 'docker-compose.yml');

const yamlFiles = listYamlFiles(k8sDir);
const kustomizationFiles = yamlFiles.filter(isKustomizationFile);
const overlayNames = readdirSync(overlaysDir)
  .filter((name) => statSync(path.join(overlaysDir, name)).isDirectory())
  .sort();
const trees = new Map<string, Resolved>([
  ['base', resolveKustomization(baseDir)],
  ...overlayNames.map((name): [string, Resolved] => [name, resolveKustomization(path.join(overlaysDir, name))]),
]);
/** Documents that kustomize treats as resources (patch files hold partial objects). */
const resourceDocs = uniqueDocs([...trees.values()].flatMap((tree) => tree.docs));
const workloads = resourceDocs.filter((doc) => (WORKLOAD_KINDS as readonly string[]).includes(doc.manifest.kind ?? ''));
const longRunning = workloads.filter((doc) => doc.manifest.kind !== 'Job');

function uniqueDocs(docs: Doc[]): Doc[] {
  const seen = new Map<string, Doc>();
  for (const doc of docs) seen.set(`${doc.file}#${doc.index}`, doc);
  return [...seen.values()];
}

function probeHandlers(probe: Probe): string[] {
  return (['httpGet', 'tcpSocket', 'grpc', 'exec'] as const).filter((handler) => probe[handler] !== undefined);
}

function probePort(probe: Probe): string | number | undefined {
  return probe.httpGet?.port ?? probe.tcpSocket?.port ?? probe.grpc?.port;
}

function containerCases(docs: Doc[]): [string, Doc, Container][] {
  return docs.flatMap((doc) =>
    containersOf(doc.manifest).map((c): [string, Doc, Container] => [`${describeDoc(doc)} ${c.name}`, doc, c]),
  );
}

describe('YAML under k8s/ and docker-compose.yml', () => {
  it('finds the files it is meant to check', () => {
    expect(kustomizationFiles.map(relative)).toEqual(
      expect.arrayContaining([
        'k8s/base/kustomization.yaml',
        'k8s/overlays/dev/kustomization.yaml',
        'k8s/overlays/prod/kustomization.yaml',
      ]),
    );
    expect(workloads.length).toBeGreaterThanOrEqual(SERVICES.length + WITH_SCHEMA.length + WEB_APPS.length);
  });

  it.each([...yamlFiles, composeFile].map((file) => [relative(file), file]))('%s parses', (_name, file) => {
    expect(readYamlDocuments(file).errors).toEqual([]);
  });

  it('every YAML file under k8s/ is a kustomization, or a resource or patch one of them uses', () => {
    const used = new Set([...trees.values()].flatMap((tree) => [...tree.files]));
    const orphans = yamlFiles.filter((file) => !used.has(file)).map(relative);
    expect(orphans).toEqual([]);
  });
});

describe('base: one Deployment, Service and migration Job per service', () => {
  const base = trees.get('base')!;
  const named = (kind: string, name: string) =>
    base.docs.some((d) => d.manifest.kind === kind && d.manifest.metadata?.name === name);

  it.each(SERVICES.map((s) => [s]))('%s has a Deployment running its main.js and a Service', (service) => {
    const deployment = base.docs.find((d) => d.manifest.kind === 'Deployment' && d.manifest.metadata?.name === service);
    expect(deployment).toBeDefined();
    expect(containersOf(deployment!.manifest)[0]?.args).toEqual(['node', `services/${service}/dist/src/main.js`]);
    expect(named('Service', service)).toBe(true);
  });

  it('has one migrate Job per service that owns a schema, running its migrate.js', () => {
    const jobs = base.docs.filter((d) => d.manifest.kind === 'Job');
    expect(jobs.map((j) => j.manifest.metadata?.name).sort()).toEqual(WITH_SCHEMA.map((s) => `migrate-${s}`).sort());
    for (const service of WITH_SCHEMA) {
      const job = jobs.find((d) => d.manifest.metadata?.name === `migrate-${service}`)!;
      expect(containersOf(job.manifest)[0]?.args).toEqual(['node', `services/${service}/dist/src/migrate.js`]);
    }
  });

  it.each(WEB_APPS.map((s) => [s]))('%s has a Deployment and a Service', (app) => {
    expect(named('Deployment', app)).toBe(true);
    expect(named('Service', app)).toBe(true);
  });

  it('autoscales gateway and screening', () => {
    const targets = base.docs
      .filter((d) => d.manifest.kind === 'HorizontalPodAutoscaler')
      .map((d) => d.manifest.spec?.scaleTargetRef?.name);
    expect(targets.sort()).toEqual(['gateway', 'screening']);
  });
});

describe('workload containers', () => {
  it.each(containerCases(workloads))('%s names an image', (_name, _doc, container) => {
    expect(typeof container.image).toBe('string');
    expect(container.image).toMatch(/^\S+$/);
  });

  it.each(containerCases(longRunning))(
    '%s has liveness and readiness probes on declared ports',
    (_name, _doc, container) => {
      for (const kind of ['livenessProbe', 'readinessProbe'] as const) {
        const probe = container[kind];
        expect({ [kind]: probe === undefined ? 'missing' : 'present' }).toEqual({ [kind]: 'present' });
        expect(probeHandlers(probe!)).toHaveLength(1);
        const port = probePort(probe!);
        if (typeof port === 'string') expect((container.ports ?? []).map((p) => p.name)).toContain(port);
      }
    },
  );

  it.each(containerCases(workloads))(
    '%s requests and limits cpu and memory, requests within limits',
    (_name, _doc, container) => {
      const { requests, limits } = container.resources ?? {};
      for (const resource of ['cpu', 'memory'] as const) {
        const requested = parseQuantity(requests?.[resource]);
        const limit = parseQuantity(limits?.[resource]);
        expect({ resource, requested: Number.isFinite(requested), limited: Number.isFinite(limit) }).toEqual({
          resource,
          requested: true,
          limited: true,
        });
        expect(requested).toBeLessThanOrEqual(limit);
      }
    },
  );

  it.each(containerCases(workloads))('%s meets the restricted pod security profile', (_name, doc, container) => {
    const pod = podSpecOf(doc.manifest)!;
    const runAsNonRoot = container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot;
    const seccomp = container.securityContext?.seccompProfile?.type ?? pod.securityContext?.seccompProfile?.type;
    expect(runAsNonRoot).toBe(true);
    expect(seccomp).toBe('RuntimeDefault');
    expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
    expect(container.securityContext?.capabilities?.drop).toContain('ALL');
    expect(container.securityContext?.capabilities?.add ?? []).toEqual([]);
  });

  it.each(workloads.map((doc) => [describeDoc(doc), doc]))('%s selects its own pod template', (_name, doc) => {
    if (doc.manifest.kind === 'Job')
      return expect(['Never', 'OnFailure']).toContain(podSpecOf(doc.manifest)?.restartPolicy);
    const selector = doc.manifest.spec?.selector as { matchLabels?: Record<string, string> } | undefined;
    expect(selector?.matchLabels).toBeDefined();
    expect(doc.manifest.spec?.template?.metadata?.labels).toMatchObject(selector!.matchLabels!);
  });
});

describe.each(['base', ...overlayNames].map((name) => [name]))('kustomize tree %s', (treeName) => {
  const tree = trees.get(treeName)!;
  const docs = tree.docs;
  const find = (kind: string, name: string | undefined) =>
    docs.find((d) => d.manifest.kind === kind && d.manifest.metadata?.name === name);

  it('each Service selects a workload and targets one of its named ports', () => {
    for (const service of docs.filter((d) => d.manifest.kind === 'Service')) {
      const selector = (service.manifest.spec?.selector ?? {}) as Record<string, string>;
      const backends = docs.filter(
        (d) =>
          d.manifest.kind !== 'Job' &&
          (WORKLOAD_KINDS as readonly string[]).includes(d.manifest.kind ?? '') &&
          Object.keys(selector).length > 0 &&
          matchesLabelSelector(
            d.manifest.spec?.template?.metadata?.labels ?? {},
            Object.entries(selector)
              .map(([k, v]) => `${k}=${v}`)
              .join(','),
          ),
      );
      expect({ service: describeDoc(service), backends: backends.length }).toEqual({
        service: describeDoc(service),
        backends: 1,
      });
      const portNames = containersOf(backends[0]!.manifest).flatMap((c) => (c.ports ?? []).map((p) => p.name));
      for (const port of service.manifest.spec?.ports ?? []) {
        if (typeof port.targetPort === 'string') expect(portNames).toContain(port.targetPort);
      }
    }
  });

  it('each HPA targets an existing Deployment that leaves the replica count to it', () => {
    for (const hpa of docs.filter((d) => d.manifest.kind === 'HorizontalPodAutoscaler')) {
      expect(hpa.manifest.apiVersion).toBe('autoscaling/v2');
      const ref = hpa.manifest.spec?.scaleTargetRef;
      expect(ref?.kind).toBe('Deployment');
      const target = find('Deployment', ref?.name);
      expect({ hpa: describeDoc(hpa), target: target ? 'exists' : 'missing' }).toEqual({
        hpa: describeDoc(hpa),
        target: 'exists',
      });
      expect(target!.manifest.spec?.replicas).toBeUndefined();
      // Utilization targets are relative to requests; without one the HPA cannot compute.
      for (const container of containersOf(target!.manifest)) expect(container.resources?.requests?.cpu).toBeDefined();
      expect(hpa.manifest.spec?.minReplicas ?? 1).toBeLessThanOrEqual(hpa.manifest.spec?.maxReplicas ?? 0);
    }
  });

  it('every ConfigMap and Secret a container reads comes from this tree, or is a documented external Secret', () => {
    const configMaps = new Set([
      ...tree.generatedConfigMaps,
      ...docs.filter((d) => d.manifest.kind === 'ConfigMap').map((d) => d.manifest.metadata?.name),
    ]);
    const secrets = new Set([
      ...tree.generatedSecrets,
      ...docs.filter((d) => d.manifest.kind === 'Secret').map((d) => d.manifest.metadata?.name),
    ]);
    const readme = readFileSync(path.join(k8sDir, 'README.md'), 'utf8');
    for (const doc of docs) {
      for (const container of containersOf(doc.manifest)) {
        for (const source of container.envFrom ?? []) {
          if (source.configMapRef)
            expect({
              doc: describeDoc(doc),
              configMap: source.configMapRef.name,
              found: configMaps.has(source.configMapRef.name),
            }).toMatchObject({ found: true });
          const secret = source.secretRef?.name;
          if (secret && !secrets.has(secret)) {
            // base is never applied alone; an overlay that does not generate a Secret expects it created beforehand.
            if (treeName === 'base') continue;
            expect({
              overlay: treeName,
              secret,
              selfContained: SELF_CONTAINED_OVERLAYS.includes(treeName),
            }).toMatchObject({ selfContained: false });
            expect({ secret, documentedInK8sReadme: readme.includes(`\`${secret}\``) }).toEqual({
              secret,
              documentedInK8sReadme: true,
            });
          }
        }
      }
    }
  });
});

describe('kustomizations', () => {
  it.each(kustomizationFiles.map((file) => [relative(file), file]))(
    '%s: every resource, component, patch and generator file exists',
    (_name, file) => {
      const missing = referencedPaths(file).filter(({ resolved, mustBeKustomization }) => {
        if (!existsSync(resolved)) return true;
        const isDir = statSync(resolved).isDirectory();
        return (isDir || mustBeKustomization) && !(isDir && kustomizationFileIn(resolved));
      });
      expect(missing.map((m) => m.entry)).toEqual([]);
    },
  );

  it.each(overlayNames.map((name) => [name]))(
    'overlay %s: every patch targets resources it inherits, at paths that exist',
    (overlay) => {
      const overlayDir = path.join(overlaysDir, overlay);
      const k = readYaml<Kustomization>(kustomizationFileIn(overlayDir)!);
      const inherited = trees.get(overlay)!.docs;
      expect((k.patches ?? []).length).toBeGreaterThan(0);
      for (const patch of k.patches ?? []) {
        const label = patch.path ?? JSON.stringify(patch.target);
        const text = patch.patch ?? readFileSync(path.resolve(overlayDir, patch.path!), 'utf8');
        const patchDocs = parseAllDocuments(text);
        const content = (Array.isArray(patchDocs) ? patchDocs : []).map((d) => d.toJS() as unknown);
        const isJsonPatch = Array.isArray(content[0]);
        if (isJsonPatch) {
          expect({ patch: label, hasTarget: patch.target !== undefined }).toEqual({ patch: label, hasTarget: true });
          const targets = inherited.filter((d) => matchesTarget(d.manifest, patch.target!));
          expect({ patch: label, targets: targets.length > 0 }).toEqual({ patch: label, targets: true });
          for (const op of content[0] as { op: string; path: string }[]) {
            // replace, remove and test fail on a missing path; add needs the parent.
            const pointer = op.op === 'add' ? op.path.replace(/\/[^/]*$/, '') : op.path;
            for (const target of targets)
              expect({
                patch: label,
                target: describeDoc(target),
                path: op.path,
                exists: pointerExists(target.manifest, pointer),
              }).toMatchObject({ exists: true });
          }
          continue;
        }
        for (const partial of content as Manifest[]) {
          const target = inherited.find(
            (d) => d.manifest.kind === partial.kind && d.manifest.metadata?.name === partial.metadata?.name,
          );
          expect({
            patch: label,
            kind: partial.kind,
            name: partial.metadata?.name,
            found: target !== undefined,
          }).toMatchObject({ found: true });
          // A strategic merge on containers matches by name: a misspelt name would add
          // a new container without an image instead of changing the existing one.
          const known = containersOf(target!.manifest).map((c) => c.name);
          for (const container of partial.spec?.template?.spec?.containers ?? [])
            expect(known).toContain(container.name);
        }
      }
    },
  );
});

describe('docker-compose.yml', () => {
  type ComposeService = {
    image?: string;
    build?: { context?: string; dockerfile?: string; target?: string; args?: Record<string, string> } | string;
    command?: string[] | string;
    restart?: string;
    healthcheck?: { test?: string[] | string; disable?: boolean };
    depends_on?: Record<string, { condition?: string }> | string[];
    volumes?: string[];
  };
  type Compose = { services: Record<string, ComposeService>; volumes?: Record<string, unknown> };
  const compose = readYaml<Compose>(composeFile);
  const services = compose.services;
  const hasHealthcheck = (s: ComposeService | undefined) =>
    Boolean(s?.healthcheck?.test) && s?.healthcheck?.disable !== true;
  const dependsOn = (s: ComposeService): Record<string, { condition?: string }> =>
    Array.isArray(s.depends_on)
      ? Object.fromEntries(s.depends_on.map((n) => [n, { condition: 'service_started' }]))
      : (s.depends_on ?? {});

  it.each([...SERVICES, ...WEB_APPS].map((s) => [s]))(
    '%s is built from an existing Dockerfile, tagged and health-checked',
    (name) => {
      const service = services[name];
      expect(service).toBeDefined();
      expect(service!.image ?? service!.build).toBeDefined();
      if (typeof service!.build === 'object') {
        const dockerfile = path.resolve(
          repoRoot,
          service!.build.context ?? '.',
          service!.build.dockerfile ?? 'Dockerfile',
        );
        expect(existsSync(dockerfile)).toBe(true);
        if (service!.build.target)
          expect(readFileSync(dockerfile, 'utf8')).toMatch(
            new RegExp(`^FROM\\s+\\S+\\s+AS\\s+${service!.build.target}\\s*$`, 'mi'),
          );
      }
      expect(hasHealthcheck(service)).toBe(true);
    },
  );

  it.each(WITH_SCHEMA.map((s) => [s]))('%s starts only after its own one-shot migration succeeded', (name) => {
    const migrate = services[`migrate-${name}`];
    expect(migrate).toBeDefined();
    expect(migrate!.image ?? migrate!.build).toBeDefined();
    expect(migrate!.image).toBe(services[name]!.image);
    expect(migrate!.command).toEqual(['node', `services/${name}/dist/src/migrate.js`]);
    expect(migrate!.restart).toBe('no');
    expect(dependsOn(migrate!)['postgres']?.condition).toBe('service_healthy');
    expect(dependsOn(services[name]!)[`migrate-${name}`]?.condition).toBe('service_completed_successfully');
  });

  it('every dependency exists, and waits for health only where a healthcheck is defined', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, { condition }] of Object.entries(dependsOn(service))) {
        expect({ name, dependency, exists: dependency in services }).toMatchObject({ exists: true });
        if (condition === 'service_healthy')
          expect({ name, dependency, healthcheck: hasHealthcheck(services[dependency]) }).toMatchObject({
            healthcheck: true,
          });
      }
    }
  });

  it('runs the infrastructure: postgres, nats with JetStream on a volume, opensearch, redis', () => {
    for (const name of ['postgres', 'nats', 'opensearch', 'redis']) {
      expect(services[name]?.image).toBeDefined();
      expect(hasHealthcheck(services[name])).toBe(true);
    }
    // The bus's generated configuration, which turns JetStream on with its store on the volume.
    expect(services['nats']!.command).toEqual(['nats-server', '-c', '/etc/nats/nats-server.conf']);
    expect(services['nats']!.volumes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^nats-data:\/data$/),
        './k8s/components/infra/nats-server.conf:/etc/nats/nats-server.conf:ro',
      ]),
    );
    expect(readFileSync(path.join(k8sDir, 'components', 'infra', 'nats-server.conf'), 'utf8')).toContain(
      'jetstream { store_dir: "/data" }',
    );
  });

  it('gives every service its own NATS key, the one its nats-server knows', async () => {
    const { publicKeyOf } = await import('@vigil/platform/bus');
    const text = readFileSync(composeFile, 'utf8');
    const seeds = new Set<string>();
    for (const service of SERVICES) {
      const upper = service.toUpperCase();
      const seed = new RegExp(`NATS_NKEY_SEED: '\\$\\{NATS_NKEY_SEED_${upper}:-(SU[A-Z2-7]{56})\\}'`).exec(text)?.[1];
      const known = new RegExp(`VIGIL_NKEY_${upper}: \\$\\{VIGIL_NKEY_${upper}:-(U[A-Z2-7]{55})\\}`).exec(text)?.[1];
      expect({ service, known }).toEqual({ service, known: publicKeyOf(seed ?? '') });
      seeds.add(seed!);
    }
    expect(seeds.size).toBe(SERVICES.length);
  });

  it('declares every named volume it mounts', () => {
    const declared = Object.keys(compose.volumes ?? {});
    for (const [name, service] of Object.entries(services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (!source.startsWith('.') && !source.startsWith('/'))
          expect({ name, volume: source, declared: declared.includes(source) }).toMatchObject({ declared: true });
      }
    }
  });
});

describe('infra/docker/Dockerfile', () => {
  const dockerfile = readFileSync(path.join(repoRoot, 'infra/docker/Dockerfile'), 'utf8');
  const stage = (name: string) => {
    const start = dockerfile.search(new RegExp(`^FROM\\s+\\S+\\s+AS\\s+${name}\\s*$`, 'mi'));
    const rest = dockerfile.slice(start + 1);
    const next = rest.search(/^FROM\s/m);
    return start < 0 ? '' : dockerfile.slice(start, next < 0 ? undefined : start + 1 + next);
  };

  it('copies the manifest of every npm workspace before npm install, so the install sees them all', () => {
    const { workspaces } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      workspaces: string[];
    };
    const manifests = stage('manifests');
    for (const workspace of workspaces)
      expect({ workspace, copied: manifests.includes(`COPY ${workspace}/package.json ${workspace}/`) }).toMatchObject({
        copied: true,
      });
  });

  it.each([['service'], ['web']])('the %s image runs as a non-root user and declares a HEALTHCHECK', (name) => {
    const runtime = stage(name);
    expect(runtime).not.toBe('');
    expect(runtime).toMatch(/^USER\s+(node|[1-9]\d*)\s*$/m);
    expect(runtime).toMatch(/^HEALTHCHECK\s/m);
  });

  it('builds on Node 24', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24[-.\w]*$/m);
  });

  it('keeps local build output and dependencies out of the build context', () => {
    const ignored = readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '.git']));
  });
});

// ----------------------------------------------------------------- rendered ---

function findRenderer(): ((dir: string) => string) | undefined {
  const tryRun = (command: string, args: string[]) => spawnSync(command, args, { encoding: 'utf8' }).status === 0;
  const render = (command: string, args: string[]) => (dir: string) => {
    const result = spawnSync(command, [...args, dir], { encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} ${relative(dir)} failed:\n${result.stderr}`);
    return result.stdout;
  };
  if (tryRun('kustomize', ['version'])) return render('kustomize', ['build']);
  if (tryRun('kubectl', ['version', '--client'])) return render('kubectl', ['kustomize']);
  return undefined;
}

const renderer = findRenderer();
const describeRendered = renderer ? describe : describe.skip;
if (!renderer)
  console.warn('manifests.spec: neither kustomize nor kubectl on PATH; the rendered-overlay checks are skipped');

describeRendered.each(overlayNames.map((name) => [name]))('rendered overlay %s', (overlay) => {
  const overlayDir = path.join(overlaysDir, overlay);
  const kustomization = readYaml<Kustomization>(kustomizationFileIn(overlayDir)!);
  let rendered: Manifest[] = [];
  beforeAll(() => {
    const parsed = parseAllDocuments(renderer!(overlayDir));
    rendered = (Array.isArray(parsed) ? parsed : []).map((d) => d.toJS() as Manifest).filter(Boolean);
  });
  const ofKind = (kind: string) => rendered.filter((m) => m.kind === kind);
  const inPhase = (m: Manifest) => m.metadata?.labels?.[PHASE_LABEL] === 'migrate';
  const label = (m: Manifest) => `${m.kind}/${m.metadata?.name}`;

  it('puts every namespaced object into the overlay namespace, which it creates first', () => {
    expect(kustomization.namespace).toBeDefined();
    const namespaces = ofKind('Namespace');
    expect(namespaces.map((n) => n.metadata?.name)).toEqual([kustomization.namespace]);
    expect(inPhase(namespaces[0]!)).toBe(true);
    for (const m of rendered.filter((m) => m.kind !== 'Namespace'))
      expect({ object: label(m), namespace: m.metadata?.namespace }).toEqual({
        object: label(m),
        namespace: kustomization.namespace,
      });
  });

  it('runs every Vigil image at a pinned tag', () => {
    const images = rendered.flatMap((m) => containersOf(m).map((c) => c.image ?? ''));
    const ours = images.filter((image) => /^(\S+\/)?vigil\//.test(image));
    expect(ours.length).toBeGreaterThanOrEqual(SERVICES.length + WITH_SCHEMA.length + WEB_APPS.length);
    for (const image of images) expect(image).toMatch(/:[\w][\w.-]*$/);
    for (const image of images) expect(image).not.toMatch(/:latest$/);
  });

  it('applies the migration Jobs, and everything they need, in the first step and nothing they do not', () => {
    const jobsRendered = ofKind('Job');
    expect(jobsRendered.map((j) => j.metadata?.name).sort()).toEqual(WITH_SCHEMA.map((s) => `migrate-${s}`).sort());
    const firstStep = new Set(rendered.filter(inPhase).map(label));
    for (const job of jobsRendered) {
      expect(firstStep).toContain(label(job));
      const pod = podSpecOf(job)!;
      if (pod.serviceAccountName) expect(firstStep).toContain(`ServiceAccount/${pod.serviceAccountName}`);
      for (const source of containersOf(job).flatMap((c) => c.envFrom ?? [])) {
        if (source.configMapRef) expect(firstStep).toContain(`ConfigMap/${source.configMapRef.name}`);
        const secret = source.secretRef?.name;
        // Secrets the overlay does not render are created before deploying (README).
        if (secret && ofKind('Secret').some((s) => s.metadata?.name === secret))
          expect(firstStep).toContain(`Secret/${secret}`);
      }
    }
    if (SELF_CONTAINED_OVERLAYS.includes(overlay)) expect(firstStep).toContain('StatefulSet/postgres');
    for (const app of [...SERVICES, ...WEB_APPS]) expect(firstStep).not.toContain(`Deployment/${app}`);
  });

  it('keeps HPA bounds sane and replica counts out of autoscaled Deployments after patching', () => {
    for (const hpa of ofKind('HorizontalPodAutoscaler')) {
      expect(hpa.spec?.minReplicas ?? 1).toBeLessThanOrEqual(hpa.spec?.maxReplicas ?? 0);
      const target = ofKind('Deployment').find((d) => d.metadata?.name === hpa.spec?.scaleTargetRef?.name);
      expect(target).toBeDefined();
      expect(target!.spec?.replicas).toBeUndefined();
    }
  });

  it('leaves every container with probes and requests within limits after patching', () => {
    for (const workload of rendered.filter((m) => (WORKLOAD_KINDS as readonly string[]).includes(m.kind ?? ''))) {
      for (const container of containersOf(workload)) {
        if (workload.kind !== 'Job') {
          expect({
            container: `${label(workload)} ${container.name}`,
            liveness: Boolean(container.livenessProbe),
            readiness: Boolean(container.readinessProbe),
          }).toMatchObject({ liveness: true, readiness: true });
        }
        for (const resource of ['cpu', 'memory'] as const) {
          expect(parseQuantity(container.resources?.requests?.[resource])).toBeLessThanOrEqual(
            parseQuantity(container.resources?.limits?.[resource]),
          );
        }
      }
    }
  });
});

// ------------------------------------------------------------ web edge (nginx) ---

/** nginx sizes: k/m/g are powers of 1024. */
function nginxBytes(size: string): number {
  const match = /^(\d+)([kmg]?)$/i.exec(size.trim());
  if (!match) throw new Error(`not an nginx size: ${size}`);
  return Number(match[1]) * 1024 ** ' kmg'.indexOf((match[2] || ' ').toLowerCase());
}

/** The gateway's largest body (a bulk batch, express.json limit 16mb) plus room for multipart framing. */
const LARGEST_UPLOAD = 16 * 1024 * 1024 + 1024 * 1024;

describe('infra/docker/nginx/default.conf.template (the web images)', () => {
  const template = readFileSync(path.join(repoRoot, 'infra/docker/nginx/default.conf.template'), 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*$/, ''))
    .join('\n');
  /** `location <match> { … }` blocks (none nest in this template) and the server level without them. */
  // A block's body may hold ${VARIABLE}s for envsubst, but no nested block.
  const locationBlock = /location\s+([^{]+?)\s*\{((?:[^{}$]|\$\{[^}]*\}|\$(?!\{))*)\}/g;
  const locations = [...template.matchAll(locationBlock)].map((m) => ({ match: m[1]!, body: m[2]! }));
  const serverLevel = template.replace(locationBlock, '');
  const location = (match: string) => locations.find((l) => l.match === match);
  const headersOf = (block: string) =>
    Object.fromEntries(
      [...block.matchAll(/add_header\s+(\S+)\s+("([^"]*)"|'([^']*)'|(\S+))(\s+always)?\s*;/g)].map((m) => [
        m[1]!.toLowerCase(),
        { value: m[3] ?? m[4] ?? m[5]!, always: Boolean(m[6]) },
      ]),
    );

  it.each([['/api/'], ['/auth/v1/']])('proxies %s to the gateway, so the containerised apps can sign in', (prefix) => {
    const block = location(prefix);
    expect(block?.body).toMatch(/proxy_pass\s+http:\/\/\$\{GATEWAY_UPSTREAM\};/);
    expect(block?.body).toMatch(/proxy_set_header\s+X-Forwarded-For\s+\$proxy_add_x_forwarded_for;/);
  });

  it('lets the largest upload through to the gateway, which answers anything larger itself', () => {
    const size = /client_max_body_size\s+(\S+);/.exec(location('/api/')?.body ?? '')?.[1];
    expect(size).toBeDefined();
    expect(nginxBytes(size!)).toBeGreaterThanOrEqual(LARGEST_UPLOAD);
  });

  it('sends the apps’ security headers (the policy of web/vite.shared.ts) and HSTS on every answer', async () => {
    const { SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY } = await import('../../web/vite.shared.js');
    const expected = Object.fromEntries(
      Object.entries({ ...SECURITY_HEADERS, 'Strict-Transport-Security': STRICT_TRANSPORT_SECURITY }).map(
        ([name, value]) => [name.toLowerCase(), { value, always: true }],
      ),
    );
    expect(headersOf(serverLevel)).toMatchObject(expected);
    // nginx drops the server-level add_header lines in a location that has any of its own.
    for (const block of locations.filter((l) => /add_header/.test(l.body))) {
      expect({ location: block.match, headers: headersOf(block.body) }).toMatchObject({
        location: block.match,
        headers: expected,
      });
    }
    // Nobody frames the apps: the admin console's clickjacking defence.
    expect(SECURITY_HEADERS['Content-Security-Policy']).toMatch(/frame-ancestors 'none'/);
  });
});

describe('k8s/overlays/prod/ingress.yaml', () => {
  it('accepts the largest upload (a 16 MiB bulk batch, or a 10 MB CSV with multipart overhead)', () => {
    const ingress = readYaml<{ metadata: { annotations?: Record<string, string> } }>(
      path.join(overlaysDir, 'prod', 'ingress.yaml'),
    );
    const size = ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'];
    expect(size).toBeDefined();
    expect(nginxBytes(size!)).toBeGreaterThanOrEqual(LARGEST_UPLOAD);
  });
});

describe('auth in the clusters', () => {
  const base = readYaml<Kustomization>(kustomizationFileIn(baseDir)!);
  const authConfig = base.configMapGenerator?.find((generator) => generator.name === 'auth-config');

  it('sends real mail: MAIL_TRANSPORT=smtp reaches the auth Deployment and its migration Job', () => {
    expect(authConfig?.literals).toContain('MAIL_TRANSPORT=smtp');
    for (const file of ['auth/deployment.yaml', 'auth/migration-job.yaml']) {
      const [container] = containersOf(readYaml<Manifest>(path.join(baseDir, file)));
      expect({ file, configMaps: container?.envFrom?.map((source) => source.configMapRef?.name) }).toEqual({
        file,
        configMaps: expect.arrayContaining(['auth-config']),
      });
    }
  });

  it('prod names AUTH_ENCRYPTION_KEY and SMTP_URL of the auth-secrets Secret for auth and its migration', () => {
    const prod = readYaml<Kustomization>(kustomizationFileIn(path.join(overlaysDir, 'prod'))!);
    const patched = (prod.patches ?? [])
      .filter((patch) => patch.path === 'patches/auth-secrets.yaml')
      .map((patch) => patch.target);
    expect(patched).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'Deployment', name: '^auth$' }),
        expect.objectContaining({ kind: 'Job', name: '^migrate-auth$' }),
      ]),
    );
    const [operation] = readYaml<
      { value: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[] }[]
    >(path.join(overlaysDir, 'prod', 'patches', 'auth-secrets.yaml'));
    const references = Object.fromEntries(operation!.value.map((entry) => [entry.name, entry.valueFrom?.secretKeyRef]));
    expect(references).toEqual({
      AUTH_ENCRYPTION_KEY: { name: 'auth-secrets', key: 'AUTH_ENCRYPTION_KEY' },
      SMTP_URL: { name: 'auth-secrets', key: 'SMTP_URL' },
    });
  });

  it('prod names MONITORING_ENCRYPTION_KEY of the monitoring-secrets Secret for monitoring and its migration', () => {
    const prod = readYaml<Kustomization>(kustomizationFileIn(path.join(overlaysDir, 'prod'))!);
    const patched = (prod.patches ?? [])
      .filter((patch) => patch.path === 'patches/monitoring-secrets.yaml')
      .map((patch) => patch.target);
    expect(patched).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'Deployment', name: '^monitoring$' }),
        expect.objectContaining({ kind: 'Job', name: '^migrate-monitoring$' }),
      ]),
    );
    const [operation] = readYaml<
      { value: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[] }[]
    >(path.join(overlaysDir, 'prod', 'patches', 'monitoring-secrets.yaml'));
    const references = Object.fromEntries(operation!.value.map((entry) => [entry.name, entry.valueFrom?.secretKeyRef]));
    expect(references).toEqual({
      MONITORING_ENCRYPTION_KEY: { name: 'monitoring-secrets', key: 'MONITORING_ENCRYPTION_KEY' },
    });
  });
});

describe('the client address behind the proxies (issue #33: one sign-in lockout for everyone)', () => {
  /** Entries of a comma-separated TRUSTED_PROXIES value. */
  const entries = (value: string | undefined) =>
    (value ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);

  it('prod tells the gateway which hops may name the client, so the ingress is not every user', () => {
    const prod = readYaml<Kustomization>(kustomizationFileIn(path.join(overlaysDir, 'prod'))!);
    const gatewayConfig = prod.configMapGenerator?.find((generator) => generator.name === 'gateway-config');
    const literal = gatewayConfig?.literals?.find((entry) => entry.startsWith('TRUSTED_PROXIES='));
    expect(entries(literal?.slice('TRUSTED_PROXIES='.length))).not.toEqual([]);
  });

  it('compose believes X-Forwarded-For only from the two nginx containers, not from whoever reaches the published gateway port', () => {
    type Network = { ipam?: { config?: { subnet?: string; ip_range?: string }[] } };
    type Service = { environment?: Record<string, string>; networks?: Record<string, { ipv4_address?: string }> };
    const compose = readYaml<{ services: Record<string, Service>; networks?: Record<string, Network> }>(composeFile);
    const addressOf = (name: string) => compose.services[name]?.networks?.['default']?.ipv4_address;
    const nginx = WEB_APPS.map(addressOf);
    expect(nginx.every(Boolean)).toBe(true);
    expect(entries(compose.services['gateway']?.environment?.['TRUSTED_PROXIES']).sort()).toEqual(
      [...(nginx as string[])].sort(),
    );
    // Fixed addresses the engine never hands to another container: outside the dynamic range.
    const [pool] = compose.networks?.['default']?.ipam?.config ?? [];
    const [rangeBase, rangeBits] = (pool?.ip_range ?? '').split('/');
    const asNumber = (ip: string) => ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
    const size = 2 ** (32 - Number(rangeBits));
    for (const address of nginx as string[]) {
      const offset = asNumber(address) - asNumber(rangeBase!);
      expect({ address, inDynamicRange: offset >= 0 && offset < size }).toEqual({ address, inDynamicRange: false });
    }
  });
});

describe('observability: Prometheus and Grafana for docker-compose and the dev cluster', () => {
  const observability = path.join(repoRoot, 'infra', 'observability');
  const component = path.join(k8sDir, 'components', 'observability');
  const compose = readYaml<{ services: Record<string, { volumes?: string[]; depends_on?: Record<string, unknown> }> }>(
    composeFile,
  );

  it('scrapes /metrics on the probe port of every service in docker-compose', () => {
    const config = readYaml<{
      scrape_configs: Array<{ metrics_path?: string; static_configs: Array<{ targets: string[] }> }>;
    }>(path.join(observability, 'prometheus.yml'));
    const job = config.scrape_configs[0]!;
    expect(job.metrics_path).toBe('/metrics');
    expect(job.static_configs.flatMap((c) => c.targets).sort()).toEqual(SERVICES.map((s) => `${s}:9090`).sort());
    const env = readFileSync(composeFile, 'utf8');
    expect(env).toMatch(/^\s+HEALTH_PORT: '9090'$/m);
    expect(compose.services['prometheus']?.volumes).toContain(
      './infra/observability/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
    );
  });

  it('provisions the Grafana dashboard in docker-compose, over the Prometheus data source', () => {
    const volumes = compose.services['grafana']?.volumes ?? [];
    for (const mount of volumes.filter((v) => v.startsWith('./')))
      expect({ mount, exists: existsSync(path.join(repoRoot, mount.split(':')[0]!)) }).toMatchObject({ exists: true });
    expect(volumes).toContain('./infra/observability/grafana/dashboards:/var/lib/grafana/dashboards:ro');
    expect(Object.keys(compose.services['grafana']?.depends_on ?? {})).toContain('prometheus');
  });

  it('the dashboard charts the figures the services export', () => {
    const dashboard = JSON.parse(
      readFileSync(path.join(observability, 'grafana', 'dashboards', 'vigil.json'), 'utf8'),
    ) as {
      uid: string;
      panels: Array<{ title: string; datasource: { uid: string }; targets: Array<{ expr: string }> }>;
    };
    const datasource = readYaml<{ datasources: Array<{ uid: string }> }>(
      path.join(observability, 'grafana', 'provisioning', 'datasources', 'prometheus.yml'),
    );
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)).join('\n');
    for (const metric of [
      'vigil_http_request_duration_seconds_bucket',
      'vigil_http_requests_total',
      'vigil_nats_handle_duration_seconds_bucket',
      'vigil_nats_request_duration_seconds_bucket',
      'vigil_db_query_duration_seconds_bucket',
      'vigil_index_entities',
      'vigil_list_ingestions_total',
      'vigil_queue_depth',
    ])
      expect({ metric, charted: exprs.includes(metric) }).toEqual({ metric, charted: true });
    for (const panel of dashboard.panels) expect(panel.datasource.uid).toBe(datasource.datasources[0]!.uid);
  });

  it('the dev cluster runs the same dashboard and provisioning (kustomize copies, kept identical)', () => {
    const same = (copy: string, original: string) =>
      expect({
        copy,
        identical:
          readFileSync(path.join(component, copy), 'utf8') === readFileSync(path.join(observability, original), 'utf8'),
      }).toEqual({ copy, identical: true });
    same('vigil.json', 'grafana/dashboards/vigil.json');
    same('grafana-datasource.yml', 'grafana/provisioning/datasources/prometheus.yml');
    same('grafana-dashboards.yml', 'grafana/provisioning/dashboards/vigil.yml');
    const dev = readYaml<Kustomization>(path.join(overlaysDir, 'dev', 'kustomization.yaml'));
    expect(dev.components).toContain('../../components/observability');
  });

  it.each(SERVICES.map((s) => [s]))('%s pods ask to be scraped on the probe port', (service) => {
    const deployment = readYamlDocuments(path.join(baseDir, service, 'deployment.yaml')).docs.find(
      (d) => d.manifest.kind === 'Deployment',
    )!.manifest;
    const template = deployment.spec?.template as { metadata?: { annotations?: Record<string, string> } } | undefined;
    expect(template?.metadata?.annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '9090',
      'prometheus.io/path': '/metrics',
    });
  });
});

describe('the bus in the clusters: a NATS user per service, TLS in prod, NetworkPolicies (issue #33)', () => {
  const devKustomization = readYaml<Kustomization>(kustomizationFileIn(path.join(overlaysDir, 'dev'))!);
  const prodKustomization = readYaml<Kustomization>(kustomizationFileIn(path.join(overlaysDir, 'prod'))!);
  const literalsOf = (kustomization: Kustomization, name: string) =>
    Object.fromEntries(
      [...(kustomization.secretGenerator ?? []), ...(kustomization.configMapGenerator ?? [])]
        .filter((generator) => generator.name === name)
        .flatMap((generator) => generator.literals ?? [])
        .map((literal) => [literal.slice(0, literal.indexOf('=')), literal.slice(literal.indexOf('=') + 1)]),
    );

  it('commits the nats-server configuration the permission table generates today', async () => {
    const { authorizationConfig, clusterConfig } = await import('../scripts/nats-config.mjs');
    expect(readFileSync(path.join(k8sDir, 'components', 'infra', 'nats-server.conf'), 'utf8')).toBe(
      await clusterConfig(),
    );
    expect(readFileSync(path.join(overlaysDir, 'prod', 'nats-authorization.conf'), 'utf8')).toBe(
      await authorizationConfig(),
    );
  });

  it.each(SERVICES.map((service) => [service]))('%s reads its own NATS key, vigil-nats-<service>', (service) => {
    const [container] = containersOf(readYaml<Manifest>(path.join(baseDir, service, 'deployment.yaml')));
    const secrets = (container?.envFrom ?? []).map((source) => source.secretRef?.name).filter(Boolean);
    expect({ service, secrets }).toEqual({ service, secrets: expect.arrayContaining([`vigil-nats-${service}`]) });
    expect(secrets.filter((name) => name!.startsWith('vigil-nats-'))).toEqual([`vigil-nats-${service}`]);
  });

  it("dev's throwaway seeds are the keys its nats-server knows", async () => {
    const { publicKeyOf, publicKeyVariable } = await import('@vigil/platform/bus');
    const known = literalsOf(devKustomization, 'nats-nkeys');
    for (const service of SERVICES) {
      const seed = literalsOf(devKustomization, `vigil-nats-${service}`).NATS_NKEY_SEED;
      expect({ service, known: known[publicKeyVariable(service)] }).toEqual({ service, known: publicKeyOf(seed!) });
    }
  });

  it('prod speaks TLS to NATS and verifies the server against the nats-ca Secret', () => {
    const common = literalsOf(prodKustomization, 'vigil-common');
    expect(common.NATS_URL).toMatch(/^tls:\/\//);
    expect(common.NATS_TLS_CA_FILE).toBe('/etc/vigil/nats-ca/ca.crt');
    const patch = (prodKustomization.patches ?? []).find((entry) => entry.path === 'patches/nats-tls.yaml');
    expect(patch?.target).toMatchObject({ kind: 'Deployment', name: `^(${SERVICES.join('|')})$` });
  });

  type Policy = {
    metadata?: { name?: string };
    spec?: {
      podSelector?: {
        matchLabels?: Record<string, string>;
        matchExpressions?: { key: string; operator: string; values: string[] }[];
      };
      policyTypes?: string[];
      ingress?: {
        from?: {
          podSelector?: {
            matchLabels?: Record<string, string>;
            matchExpressions?: { key: string; values: string[] }[];
          };
        }[];
        ports?: { port?: string | number }[];
      }[];
    };
  };
  const rendered = (overlay: string): (Manifest & Policy)[] => {
    const parsed = parseAllDocuments(renderer!(path.join(overlaysDir, overlay)));
    return (Array.isArray(parsed) ? parsed : []).map((d) => d.toJS() as Manifest & Policy).filter(Boolean);
  };
  /** Who a policy lets in: "<label>=<value>[:port]" per source. */
  const sources = (policy: Policy | undefined) =>
    (policy?.spec?.ingress ?? []).flatMap((rule) =>
      (rule.from ?? []).map((peer) => {
        const labels = peer.podSelector?.matchLabels ?? {};
        const expressions = (peer.podSelector?.matchExpressions ?? []).map((e) => `${e.key} in ${e.values.join(',')}`);
        const ports = (rule.ports ?? []).map((p) => p.port).join(',');
        return `${[...Object.entries(labels).map(([k, v]) => `${k}=${v}`), ...expressions].join(' ')}${ports ? `:${ports}` : ''}`;
      }),
    );
  const policyNamed = (docs: (Manifest & Policy)[], name: string) =>
    docs.find((doc) => doc.kind === 'NetworkPolicy' && doc.metadata?.name === name);

  (renderer ? it : it.skip).each(overlayNames.map((name) => [name]))(
    '%s: only the gateway (and Prometheus on the probe port) reaches the backends',
    (overlay) => {
      const policy = policyNamed(rendered(overlay), 'services-from-gateway');
      expect(policy?.spec?.podSelector?.matchExpressions).toEqual([
        {
          key: 'app.kubernetes.io/name',
          operator: 'In',
          values: ['auth', 'screening', 'monitoring', 'billing', 'audit'],
        },
      ]);
      expect(policy?.spec?.policyTypes).toEqual(['Ingress']);
      expect(sources(policy)).toEqual(['app.kubernetes.io/name=gateway', 'app.kubernetes.io/name=prometheus:health']);
    },
  );

  (renderer ? it : it.skip)('dev: only the services reach NATS, only services and migrations reach Postgres', () => {
    const docs = rendered('dev');
    const nats = policyNamed(docs, 'nats-from-services');
    expect(nats?.spec?.podSelector?.matchLabels).toEqual({ 'app.kubernetes.io/name': 'nats' });
    expect(sources(nats)).toEqual([
      'app.kubernetes.io/component=service:client',
      'app.kubernetes.io/name=prometheus:monitor',
    ]);
    const postgres = policyNamed(docs, 'postgres-from-services');
    expect(postgres?.spec?.podSelector?.matchLabels).toEqual({ 'app.kubernetes.io/name': 'postgres' });
    expect(sources(postgres)).toEqual(['app.kubernetes.io/component in service,migration:5432']);
    // The in-cluster server runs the generated configuration with the keys from nats-nkeys.
    const server = docs.find((doc) => doc.kind === 'StatefulSet' && doc.metadata?.name === 'nats');
    const [container] = containersOf(server!);
    expect(container?.args).toEqual(['nats-server', '-c', '/etc/nats/nats-server.conf']);
    expect(container?.envFrom?.map((source) => source.secretRef?.name)).toEqual([
      expect.stringMatching(/^nats-nkeys-/),
    ]);
  });

  (renderer ? it : it.skip)('prod mounts nats-ca where NATS_TLS_CA_FILE points, in every service', () => {
    const docs = rendered('prod');
    for (const service of SERVICES) {
      const deployment = docs.find((doc) => doc.kind === 'Deployment' && doc.metadata?.name === service)!;
      const spec = podSpecOf(deployment) as { volumes?: { name: string; secret?: { secretName?: string } }[] };
      const [container] = containersOf(deployment) as (Container & {
        volumeMounts?: { name: string; mountPath: string }[];
      })[];
      expect({ service, volume: spec.volumes?.find((v) => v.name === 'nats-ca')?.secret?.secretName }).toEqual({
        service,
        volume: 'nats-ca',
      });
      expect({ service, mount: container?.volumeMounts?.find((m) => m.name === 'nats-ca')?.mountPath }).toEqual({
        service,
        mount: '/etc/vigil/nats-ca',
      });
    }
  });

  type Peer = {
    podSelector?: { matchLabels?: Record<string, string> };
    namespaceSelector?: Record<string, unknown>;
    ipBlock?: { cidr: string; except?: string[] };
  };
  type EgressPolicy = Manifest & {
    spec?: {
      podSelector?: {
        matchLabels?: Record<string, string>;
        matchExpressions?: { key: string; operator: string; values: string[] }[];
      };
      policyTypes?: string[];
      egress?: { to?: Peer[]; ports?: { port?: number | string; protocol?: string }[] }[];
    };
  };
  const selects = (policy: EgressPolicy, labels: Record<string, string>) => {
    const selector = policy.spec?.podSelector ?? {};
    return (
      Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value) &&
      (selector.matchExpressions ?? []).every((e) => e.operator === 'In' && e.values.includes(labels[e.key] ?? ''))
    );
  };
  /** Where a pod with `labels` may connect: "<peer>:<ports>" per allowed destination, sorted. */
  const egressOf = (docs: (Manifest & Policy)[], labels: Record<string, string>) =>
    docs
      .filter((doc) => doc.kind === 'NetworkPolicy')
      .map((doc) => doc as EgressPolicy)
      .filter((policy) => policy.spec?.policyTypes?.includes('Egress') && selects(policy, labels))
      .flatMap((policy) =>
        (policy.spec?.egress ?? []).flatMap((rule) => {
          const ports = (rule.ports ?? []).map((p) => p.port).join(',') || 'any';
          const peers = (rule.to ?? [{}]).map((peer: Peer) =>
            peer.ipBlock
              ? `public ${peer.ipBlock.cidr}`
              : peer.podSelector?.matchLabels
                ? Object.values(peer.podSelector.matchLabels).join(',')
                : peer.namespaceSelector
                  ? 'cluster'
                  : 'anywhere',
          );
          return peers.map((peer) => `${peer}:${ports}`);
        }),
      )
      .sort();
  const podLabels = (doc: Manifest) =>
    (doc as { spec?: { template?: { metadata?: { labels?: Record<string, string> } } } }).spec?.template?.metadata
      ?.labels ?? {};
  const PRIVATE = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', 'fc00::/7'];

  (renderer ? it : it.skip).each(overlayNames.map((name) => [name]))(
    '%s: each Vigil pod reaches only what it needs (egress), the Internet only at public addresses',
    (overlay) => {
      const docs = rendered(overlay);
      const workloads = docs.filter(
        (doc) =>
          ['Deployment', 'Job'].includes(doc.kind ?? '') && podLabels(doc)['app.kubernetes.io/part-of'] === 'vigil',
      );
      const dns = ['kube-dns:53,53'];
      const expected: Record<string, string[]> = {
        gateway: [...dns, 'anywhere:4222,5432', 'cluster:6379'],
        auth: [...dns, 'anywhere:4222,5432', 'public 0.0.0.0/0:443,25,465,587', 'public ::/0:443,25,465,587'],
        screening: [...dns, 'anywhere:4222,5432', 'cluster:9200', 'public 0.0.0.0/0:443,80', 'public ::/0:443,80'],
        monitoring: [...dns, 'anywhere:4222,5432', 'public 0.0.0.0/0:any', 'public ::/0:any'],
        billing: [...dns, 'anywhere:4222,5432', 'public 0.0.0.0/0:443', 'public ::/0:443'],
        audit: [...dns, 'anywhere:4222,5432'],
        web: [...dns, 'gateway:8080'],
        'admin-web': [...dns, 'gateway:8080'],
      };
      // The dev cluster's auth also sends mail to its in-cluster mailpit.
      if (overlay === 'dev') expected['auth']!.push('mailpit:1025');
      expect(workloads.length).toBe(SERVICES.length * 2 + 2);
      for (const doc of workloads) {
        const labels = podLabels(doc);
        const name = labels['app.kubernetes.io/name']!;
        const want = doc.kind === 'Job' ? [...dns, 'anywhere:5432'] : expected[name];
        expect({ workload: `${doc.kind}/${doc.metadata?.name}`, egress: egressOf(docs, labels) }).toEqual({
          workload: `${doc.kind}/${doc.metadata?.name}`,
          egress: [...want!].sort(),
        });
      }
      // "Public" leaves out the private ranges: the cluster's own pods and services, cloud metadata.
      const blocks = docs
        .filter((doc) => doc.kind === 'NetworkPolicy')
        .flatMap((doc) => (doc as EgressPolicy).spec?.egress ?? [])
        .flatMap((rule) => rule.to ?? [])
        .flatMap((peer) => (peer.ipBlock ? [peer.ipBlock] : []));
      expect(blocks.length).toBeGreaterThan(0);
      for (const block of blocks)
        expect({ block: block.cidr, excepts: PRIVATE.filter((r) => (block.except ?? []).includes(r)).length }).toEqual({
          block: block.cidr,
          excepts: block.cidr === '0.0.0.0/0' ? 4 : 1,
        });
    },
  );
});

describe('Postgres in the clusters and compose: a role and password per service, migrations by the migration role (issue #33)', () => {
  const secretRefs = (manifest: Manifest) =>
    containersOf(manifest).flatMap((c) => (c.envFrom ?? []).flatMap((source) => source.secretRef?.name ?? []));
  const base = trees.get('base')!;

  it.each(SERVICES.map((s) => [s]))(
    '%s runs with its own database Secret; only its migration Job also gets the migration role',
    (service) => {
      const find = (kind: string, name: string) =>
        base.docs.find((d) => d.manifest.kind === kind && d.manifest.metadata?.name === name)!.manifest;
      const runtime = secretRefs(find('Deployment', service)).filter((name) => name.startsWith('vigil-database'));
      expect(runtime).toEqual([`vigil-database-${service}`]);
      const job = secretRefs(find('Job', `migrate-${service}`)).filter((name) => name.startsWith('vigil-database'));
      expect(job.sort()).toEqual([`vigil-database-${service}`, 'vigil-database-migration'].sort());
    },
  );

  it('dev: each service logs in as vigil_<service> with a password of its own; the migration role is another user', () => {
    const dev = readYaml<Kustomization>(kustomizationFileIn(path.join(overlaysDir, 'dev'))!);
    const urlIn = (name: string, key: string) => {
      const literal = (dev.secretGenerator ?? [])
        .find((g) => g.name === name)
        ?.literals?.find((l) => l.startsWith(`${key}=`));
      return new URL(literal!.slice(key.length + 1));
    };
    const passwords = new Set<string>();
    for (const service of SERVICES) {
      const url = urlIn(`vigil-database-${service}`, 'DATABASE_URL');
      expect({ service, user: url.username }).toEqual({ service, user: `vigil_${service}` });
      passwords.add(url.password);
    }
    expect(passwords.size).toBe(SERVICES.length);
    const migration = urlIn('vigil-database-migration', 'MIGRATION_DATABASE_URL');
    expect(migration.username).not.toMatch(/^vigil_/);
    expect(passwords.has(migration.password)).toBe(false);
  });

  it('compose: the same, and MIGRATION_DATABASE_URL only in the migrate-* one-shots', () => {
    type Service = { environment?: Record<string, string> };
    const compose = readYaml<{ services: Record<string, Service> }>(composeFile);
    const passwords = new Set<string>();
    for (const service of SERVICES) {
      const url = new URL(
        compose.services[service]!.environment!['DATABASE_URL']!.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1'),
      );
      expect({ service, user: url.username }).toEqual({ service, user: `vigil_${service}` });
      passwords.add(url.password);
      expect(compose.services[`migrate-${service}`]!.environment!['DATABASE_URL']).toBe(
        compose.services[service]!.environment!['DATABASE_URL'],
      );
    }
    expect(passwords.size).toBe(SERVICES.length);
    for (const [name, service] of Object.entries(compose.services))
      expect({ name, migrationRole: 'MIGRATION_DATABASE_URL' in (service.environment ?? {}) }).toEqual({
        name,
        migrationRole: name.startsWith('migrate-'),
      });
  });
});
