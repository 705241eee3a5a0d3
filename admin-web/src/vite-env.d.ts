/// <reference types="vite/client" />

// An interface, not a type: it must merge with Vite's own ImportMetaEnv declaration.
interface ImportMetaEnv {
  /** Where the gateway answers; empty or unset means the same origin (served through the proxy). */
  readonly VITE_GATEWAY_URL?: string;
  /** The client web app; unset means the same host, one port below the console's (3000 beside 3001). */
  readonly VITE_WEB_URL?: string;
}
