import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postToTarget, resolveTarget, targetProblem } from './webhook-targets.js';

describe('webhook targets', () => {
  it('refuses private, link-local, reserved and (unless allowed) loopback addresses', async () => {
    for (const url of [
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://172.16.5.4/',
      'https://192.168.0.10/',
      'https://100.64.0.1/',
      'https://0.0.0.0/',
      'https://[fe80::1]/',
      'https://[fd00::1]/',
      'https://[::ffff:10.0.0.1]/',
      // Documentation ranges: never a real receiver.
      'https://192.0.2.10/',
      'https://198.51.100.7/',
      'https://203.0.113.99/',
      'https://[2001:db8::1]/',
      // IPv4 inside IPv6: mapped (hex form too), NAT64, 6to4, each of a private address.
      'https://[::ffff:0a00:0001]/',
      'https://[::ffff:c0a8:1]/',
      'https://[64:ff9b::10.0.0.1]/',
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://[2002:0a00:0001::1]/',
      'https://[2002:c0a8:0001::]/',
    ]) {
      expect([url, await targetProblem(url, true)]).toEqual([
        url,
        expect.stringMatching(/private, link-local or reserved/),
      ]);
    }
    expect(await targetProblem('https://127.0.0.1/hook', false)).toMatch(/loopback/);
    expect(await targetProblem('https://[::1]/hook', false)).toMatch(/loopback/);
    expect(await targetProblem('https://localhost/hook', false)).toMatch(/loopback/);
    expect(await targetProblem('https://[::ffff:127.0.0.1]/hook', false)).toMatch(/loopback/);
  });

  it('accepts public https targets, and loopback (http too) only with the development setting', async () => {
    expect(await targetProblem('https://93.184.216.34/hook', false)).toBeNull();
    expect(await targetProblem('http://93.184.216.34/hook', false)).toMatch(/https/);
    expect(await targetProblem('http://127.0.0.1:8080/hook', true)).toBeNull();
    expect(await targetProblem('https://user:pw@93.184.216.34/', false)).toMatch(/credentials/);
    // NAT64 and 6to4 forms of a public address are public.
    expect(await targetProblem('https://[64:ff9b::5db8:d822]/hook', false)).toBeNull();
    expect(await targetProblem('https://[2002:5db8:d822::1]/hook', false)).toBeNull();
  });

  it('delivers to the address it checked, with the name as Host: a second answer from DNS (rebinding) is never asked for', async () => {
    const hosts: Array<string | undefined> = [];
    const server = createServer((req, res) => {
      hosts.push(req.headers.host);
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    let answers = 0;
    // The name resolves to the (allowed) receiver when checked, to a private address afterwards.
    const dns = async () => [{ address: ++answers === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
    try {
      const checked = await resolveTarget(`http://hooks.rebind.test:${port}/hook`, true, dns);
      if (!('target' in checked)) throw new Error(checked.problem);
      const status = await postToTarget(checked.target, {
        headers: { 'content-type': 'application/json' },
        body: '{}',
        timeoutMs: 5_000,
      });
      expect(status).toBe(204);
      expect(answers).toBe(1);
      expect(hosts).toEqual([`hooks.rebind.test:${port}`]);
    } finally {
      server.close();
    }
  });
});
