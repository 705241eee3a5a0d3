export const OPENSEARCH_VERSION: string;
export const INSTALL_HINT: string;
export const OPENSEARCH_USER: string;
export type OpenSearchNode = {
  url: string;
  stop: () => Promise<void>;
  /** Set when the node is our own (not OPENSEARCH_URL, not one left running). */
  pid?: number;
  home?: string;
  nodeDir?: string;
};
export function ensureOpenSearch(options?: {
  port?: number;
  url?: string;
  heap?: string;
  version?: string;
  fail?: (message: string) => never;
}): Promise<OpenSearchNode>;
export function checkToolchain(fail?: (message: string) => never): number;
export function javaMajorOf(versionText: string): number | undefined;
