// Jest global setup: Postgres (see servers.mjs) and an OpenSearch node, for screening's tests of
// INDEX_ENGINE=opensearch: OPENSEARCH_URL when it answers (npm test's node), else one of our own
// on the port of OPENSEARCH_URL (npm test's 9250 when unset), installed from Maven Central on first
// use (infra/scripts/opensearch.mjs). Another port than the URL's would start a node on a port the
// caller did not give, one someone else's run may be using.
import { ensureOpenSearch } from '../opensearch.mjs';
import { startServers } from './servers.mjs';

export default async () => {
  await startServers();
  const node = await ensureOpenSearch({
    port: Number(new URL(process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9250').port || 9250),
    fail: (message) => {
      throw new Error(message);
    },
  });
  process.env.OPENSEARCH_URL = node.url;
  globalThis.vigilTestServers.push(node);
};
