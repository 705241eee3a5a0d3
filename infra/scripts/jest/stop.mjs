// Jest global teardown: stops the servers servers.mjs started (one that already answered is left alone).
export default async function stopServers() {
  for (const server of globalThis.vigilTestServers ?? []) await server.stop();
}
