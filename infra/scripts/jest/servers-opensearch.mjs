// Jest global setup: Postgres (see servers.mjs) and an OpenSearch node, for screening's tests of
// INDEX_ENGINE=opensearch: OPENSEARCH_URL when it answers (npm test's node), else one of our own
// on npm test's port, installed from Maven Central on first use (infra/scripts/opensearch.mjs).
import { ensureOpenSearch } from '../opensearch.mjs';
import { startServers } from './servers.mjs';

export default async () => {
  await startServers();
  const node = await ensureOpenSearch({
    port: 9250,
    fail: (message) => {
      throw new Error(message);
    },
  });
  process.env.OPENSEARCH_URL = node.url;
  globalThis.vigilTestServers.push(node);
};
