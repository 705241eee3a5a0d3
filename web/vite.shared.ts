// Vite settings both Vigil apps share: ports and the proxy to the gateway.
// The apps always call same-origin paths (/api/..., /health); in `vite dev` and
// `vite preview` this proxy forwards them, in production a reverse proxy does.
// Plugins come from each app's own config, which resolves them from its own dependencies.
import type { PluginOption, ProxyOptions, UserConfig } from 'vite';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * What the browser may load and who may frame the apps: nothing from elsewhere, and
 * nobody (the admin console above all). The same headers are sent by `vite preview`,
 * `vite dev` (plus what hot reload needs) and the nginx template of the containers;
 * infra/test checks that the template repeats them word for word.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Radix positions popovers and menus with inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  // The MFA enrolment QR code is a data: SVG.
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  // For browsers that predate frame-ancestors.
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

/** HTTPS only, so only where TLS ends in front of the apps (the nginx template, behind the ingress). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * `vite dev` injects React Refresh's inline preamble and talks to its HMR websocket:
 * the same policy with exactly those two allowances.
 */
function devServerHeaders(): Record<string, string> {
  const csp = CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
    "connect-src 'self'",
    "connect-src 'self' ws: wss:",
  );
  return { ...SECURITY_HEADERS, 'Content-Security-Policy': csp };
}

export type AppServerSettings = {
  host: string;
  port: number;
  gatewayUrl: string;
};

/** Reads PORT, HOST and GATEWAY_URL; a malformed value stops Vite with a message naming the variable. */
export function readServerSettings(env: Env, defaultPort: number): AppServerSettings {
  const rawPort = env.PORT?.trim();
  const port = rawPort ? Number(rawPort) : defaultPort;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`PORT must be an integer between 1 and 65535, got "${env.PORT}"`);
  }

  const gatewayUrl = env.GATEWAY_URL?.trim() || 'http://127.0.0.1:8080';
  let parsed: URL;
  try {
    parsed = new URL(gatewayUrl);
  } catch {
    throw new Error(`GATEWAY_URL must be an absolute http(s) URL, got "${gatewayUrl}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`GATEWAY_URL must be an absolute http(s) URL, got "${gatewayUrl}"`);
  }

  // Loopback by default so a dev server is not exposed on the network; containers set HOST=0.0.0.0.
  const host = env.HOST?.trim() || '127.0.0.1';
  return { host, port, gatewayUrl: parsed.origin };
}

function gatewayProxy(gatewayUrl: string): Record<string, ProxyOptions> {
  const toGateway: ProxyOptions = { target: gatewayUrl, changeOrigin: true, xfwd: true };
  return {
    // The live WebSocket is an upgrade through the same proxy (the page may only connect to itself).
    '^/api/monitoring/live(?:\\?.*)?$': { ...toGateway, ws: true },
    '/api': toGateway,
    // The auth service's routes (sign-in, sign-up, sessions, MFA, Google, the dev mailbox).
    '/auth/v1': toGateway,
    // The gateway's OpenAPI document, which the Docs page renders.
    '^/openapi\\.json$': toGateway,
    // Only /health itself (and its query string): a future client route such as /healthcare stays in the app.
    '^/health(?:\\?.*)?$': toGateway,
  };
}

export function vigilAppConfig(options: { defaultPort: number; plugins: PluginOption[]; env?: Env }): UserConfig {
  const { host, port, gatewayUrl } = readServerSettings(options.env ?? process.env, options.defaultPort);
  const proxy = gatewayProxy(gatewayUrl);
  return {
    plugins: options.plugins,
    server: { host, port, strictPort: true, proxy, headers: devServerHeaders() },
    preview: { host, port, strictPort: true, proxy, headers: { ...SECURITY_HEADERS } },
    build: {
      sourcemap: true,
      rolldownOptions: {
        output: {
          // Libraries change far less often than our code: separate chunks stay cached across deploys.
          codeSplitting: {
            groups: [
              {
                name: 'react',
                test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|react-redux|@reduxjs|redux|immer|reselect)[\\/]/,
                priority: 2,
              },
              // Charts and tables are for the dashboards only: left to the lazy chunks that use them, so the
              // public site never downloads them.
              {
                name: 'vendor',
                test: /node_modules[\\/](?!(recharts|d3-[a-z-]+|victory-vendor|decimal\.js-light|internmap|es-toolkit|eventemitter3|@tanstack)[\\/])/,
                priority: 1,
              },
            ],
          },
        },
      },
    },
  };
}
