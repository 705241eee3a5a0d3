import { jest } from '@jest/globals';
import { ElasticsearchCluster } from './elasticsearch.engine.js';
import { searchClusterSuite } from './search-index.contract.js';

// Runs the engine contract against a real Elasticsearch when ELASTICSEARCH_URL is set
// (an Elasticsearch 8 node of your own; ELASTICSEARCH_URL=http://127.0.0.1:9200). Nothing in this
// project starts one (Elastic's server is not open source; compose and k8s run OpenSearch): here it skips.

// A real cluster on a busy 2-core CI machine: creating, filling and refreshing an index can
// take longer than jest's default 5 s per hook or test.
jest.setTimeout(60_000);

searchClusterSuite({
  engine: 'elasticsearch',
  url: process.env.ELASTICSEARCH_URL,
  cluster: (options) => new ElasticsearchCluster(options),
  howToRun:
    'ELASTICSEARCH_URL is not set (start an Elasticsearch 8 node of your own, then ELASTICSEARCH_URL=http://127.0.0.1:9200).',
  requiredInCi: false,
});
