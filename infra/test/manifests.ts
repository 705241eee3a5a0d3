// Reading the deployment files as data: every YAML document under k8s/, what each
// kustomization pulls in (resources, components, generators, patches), and
// docker-compose.yml. No kustomize emulation beyond that: patches are located and
// checked against their targets, not applied (manifests.spec.ts renders the
// overlays with `kubectl kustomize` for the applied result, when kubectl exists).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type Labels = Record<string, string>;

export type Probe = {
  httpGet?: { path?: string; port?: string | number };
  tcpSocket?: { port?: string | number };
  grpc?: { port?: number };
  exec?: { command?: string[] };
};

export type Quantities = { cpu?: string | number; memory?: string | number };

export type Container = {
  name?: string;
  image?: string;
  args?: string[];
  ports?: { name?: string; containerPort?: number }[];
  envFrom?: { configMapRef?: { name?: string }; secretRef?: { name?: string } }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Quantities; limits?: Quantities };
  securityContext?: SecurityContext;
};

export type SecurityContext = {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  allowPrivilegeEscalation?: boolean;
  readOnlyRootFilesystem?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
  seccompProfile?: { type?: string };
};

export type PodSpec = {
  containers?: Container[];
  initContainers?: Container[];
  restartPolicy?: string;
  serviceAccountName?: string;
  securityContext?: SecurityContext;
};

export type Manifest = {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Labels };
  spec?: {
    replicas?: number;
    selector?: { matchLabels?: Labels } | Labels;
    template?: { metadata?: { labels?: Labels }; spec?: PodSpec };
    ports?: { name?: string; port?: number; targetPort?: string | number }[];
    scaleTargetRef?: { apiVersion?: string; kind?: string; name?: string };
    minReplicas?: number;
    maxReplicas?: number;
  };
};

/** One YAML document and where it came from, for failure messages. */
export type Doc = { file: string; index: number; manifest: Manifest };

export type PatchTarget = { kind?: string; name?: string; labelSelector?: string };
export type PatchEntry = { path?: string; patch?: string; target?: PatchTarget };
export type Generator = { name?: string; behavior?: string; literals?: string[]; files?: string[]; envs?: string[] };

export type Kustomization = {
  kind?: string;
  namespace?: string;
  resources?: string[];
  components?: string[];
  patches?: PatchEntry[];
  configMapGenerator?: Generator[];
  secretGenerator?: Generator[];
  images?: { name: string; newName?: string; newTag?: string }[];
};

export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'] as const;

const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

export function relative(file: string): string {
  return path.relative(repoRoot, file);
}

export function listYamlFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...listYamlFiles(full));
    else if (/\.ya?ml$/.test(entry.name)) found.push(full);
  }
  return found.sort();
}

/** Parse errors are returned rather than thrown so one test can name every broken file. */
export function readYamlDocuments(file: string): { docs: Doc[]; errors: string[] } {
  const parsed = parseAllDocuments(readFileSync(file, 'utf8'));
  const documents = Array.isArray(parsed) ? parsed : [];
  const errors = documents.flatMap((document) => document.errors.map((error) => `${relative(file)}: ${error.message}`));
  const docs = documents
    .map((document, index) => ({ file, index, manifest: document.toJS() as Manifest | null }))
    .filter((doc): doc is Doc => doc.manifest !== null && typeof doc.manifest === 'object');
  return { docs, errors };
}

export function readYaml<T>(file: string): T {
  // Compose files use YAML merge keys (<<: *anchor), which are YAML 1.1.
  return parse(readFileSync(file, 'utf8'), { merge: true }) as T;
}

export function kustomizationFileIn(dir: string): string | undefined {
  return KUSTOMIZATION_NAMES.map((name) => path.join(dir, name)).find((file) => existsSync(file));
}

export function isKustomizationFile(file: string): boolean {
  return KUSTOMIZATION_NAMES.includes(path.basename(file));
}

/** The files and directories a kustomization entry may name that must exist on disk. */
export function referencedPaths(
  kustomizationFile: string,
): { entry: string; resolved: string; mustBeKustomization: boolean }[] {
  const dir = path.dirname(kustomizationFile);
  const k = readYaml<Kustomization>(kustomizationFile);
  const refs: { entry: string; resolved: string; mustBeKustomization: boolean }[] = [];
  for (const entry of k.resources ?? [])
    refs.push({ entry, resolved: path.resolve(dir, entry), mustBeKustomization: false });
  for (const entry of k.components ?? [])
    refs.push({ entry, resolved: path.resolve(dir, entry), mustBeKustomization: true });
  for (const patch of k.patches ?? [])
    if (patch.path)
      refs.push({ entry: patch.path, resolved: path.resolve(dir, patch.path), mustBeKustomization: false });
  for (const generator of [...(k.configMapGenerator ?? []), ...(k.secretGenerator ?? [])]) {
    for (const file of [...(generator.envs ?? []), ...(generator.files ?? [])]) {
      const source = file.includes('=') ? file.slice(file.indexOf('=') + 1) : file;
      refs.push({ entry: file, resolved: path.resolve(dir, source), mustBeKustomization: false });
    }
  }
  return refs;
}

export type Resolved = {
  /** Resource documents reachable through resources and components, patches not applied. */
  docs: Doc[];
  /** Every file this kustomization tree reads (kustomizations, resources, patches, generator inputs). */
  files: Set<string>;
  generatedConfigMaps: Set<string>;
  generatedSecrets: Set<string>;
  /** Patches of this tree with the kustomization file that lists them. */
  patches: { owner: string; entry: PatchEntry }[];
};

/** Walks a kustomization directory the way `kustomize build` collects its inputs. */
export function resolveKustomization(dir: string): Resolved {
  const file = kustomizationFileIn(dir);
  if (!file) throw new Error(`${relative(dir)} has no kustomization file`);
  const k = readYaml<Kustomization>(file);
  const resolved: Resolved = {
    docs: [],
    files: new Set([file]),
    generatedConfigMaps: new Set((k.configMapGenerator ?? []).flatMap((g) => (g.name ? [g.name] : []))),
    generatedSecrets: new Set((k.secretGenerator ?? []).flatMap((g) => (g.name ? [g.name] : []))),
    patches: (k.patches ?? []).map((entry) => ({ owner: file, entry })),
  };
  for (const entry of [...(k.resources ?? []), ...(k.components ?? [])]) {
    const target = path.resolve(dir, entry);
    if (existsSync(target) && statSync(target).isDirectory()) {
      const child = resolveKustomization(target);
      resolved.docs.push(...child.docs);
      child.files.forEach((f) => resolved.files.add(f));
      child.generatedConfigMaps.forEach((n) => resolved.generatedConfigMaps.add(n));
      child.generatedSecrets.forEach((n) => resolved.generatedSecrets.add(n));
      resolved.patches.push(...child.patches);
    } else if (existsSync(target)) {
      resolved.docs.push(...readYamlDocuments(target).docs);
      resolved.files.add(target);
    }
  }
  for (const { owner, entry } of resolved.patches)
    if (entry.path) resolved.files.add(path.resolve(path.dirname(owner), entry.path));
  // Files a generator turns into a ConfigMap or Secret (e.g. a Prometheus configuration) are read too.
  for (const generator of [...(k.configMapGenerator ?? []), ...(k.secretGenerator ?? [])])
    for (const entry of [...(generator.envs ?? []), ...(generator.files ?? [])])
      resolved.files.add(path.resolve(dir, entry.includes('=') ? entry.slice(entry.indexOf('=') + 1) : entry));
  return resolved;
}

export function podSpecOf(manifest: Manifest): PodSpec | undefined {
  return manifest.spec?.template?.spec;
}

export function containersOf(manifest: Manifest): Container[] {
  const pod = podSpecOf(manifest);
  return [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])];
}

export function describeDoc(doc: Doc): string {
  return `${doc.manifest.kind}/${doc.manifest.metadata?.name} (${relative(doc.file)}#${doc.index})`;
}

/** kustomize anchors target names as regular expressions. */
export function matchesTarget(manifest: Manifest, target: PatchTarget): boolean {
  if (target.kind && manifest.kind !== target.kind) return false;
  if (target.name && !new RegExp(`^(?:${target.name})$`).test(manifest.metadata?.name ?? '')) return false;
  if (target.labelSelector && !matchesLabelSelector(manifest.metadata?.labels ?? {}, target.labelSelector))
    return false;
  return true;
}

/** Equality (`a=b`, `a==b`, `a!=b`) and set (`a in (x,y)`) terms, comma-joined. */
export function matchesLabelSelector(labels: Labels, selector: string): boolean {
  const terms = selector.match(/[^,(]+(?:\([^)]*\))?/g) ?? [];
  return terms.every((raw) => {
    const term = raw.trim();
    const set = /^(\S+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
    if (set) {
      const values = (set[3] ?? '').split(',').map((v) => v.trim());
      const present = values.includes(labels[set[1] ?? ''] ?? '\u0000');
      return set[2] === 'in' ? present : !present;
    }
    const equality = /^([^!=\s]+)\s*(!=|==|=)\s*(\S*)$/.exec(term);
    if (equality) {
      const [, key = '', op, value] = equality;
      return op === '!=' ? labels[key] !== value : labels[key] === value;
    }
    return term in labels;
  });
}

/** Kubernetes quantities (cpu "500m", "2"; memory "512Mi", "1Gi") as plain numbers. */
export function parseQuantity(value: string | number | undefined): number {
  if (value === undefined) return Number.NaN;
  if (typeof value === 'number') return value;
  const match = /^([0-9.]+)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(value.trim());
  if (!match) return Number.NaN;
  const factors: Record<string, number> = {
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
  };
  return Number(match[1]) * (match[2] ? (factors[match[2]] ?? Number.NaN) : 1);
}

/** Whether an RFC 6901 pointer names an existing location in a plain object tree. */
export function pointerExists(root: unknown, pointer: string): boolean {
  let node: unknown = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      const index = Number(key);
      if (!Number.isInteger(index) || index < 0 || index >= node.length) return false;
      node = node[index];
    } else if (node !== null && typeof node === 'object' && key in node) {
      node = (node as Record<string, unknown>)[key];
    } else {
      return false;
    }
  }
  return true;
}
