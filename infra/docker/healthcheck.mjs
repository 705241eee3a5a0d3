// Docker HEALTHCHECK for the Node services. The slim runtime image has no curl or
// wget, and Node is already there. Usage: node healthcheck.mjs [url]
// Without a URL it asks the service's internal health server (HEALTH_PORT) whether
// it is ready, which is what `depends_on: condition: service_healthy` should mean.
const url = process.argv[2] ?? `http://127.0.0.1:${process.env.HEALTH_PORT ?? '9090'}/readyz`;

try {
  const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
