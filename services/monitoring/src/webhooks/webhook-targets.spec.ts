import { targetProblem } from './webhook-targets.js';

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
    ]) {
      expect([url, await targetProblem(url, true)]).toEqual([
        url,
        expect.stringMatching(/private, link-local or reserved/),
      ]);
    }
    expect(await targetProblem('https://127.0.0.1/hook', false)).toMatch(/loopback/);
    expect(await targetProblem('https://[::1]/hook', false)).toMatch(/loopback/);
    expect(await targetProblem('https://localhost/hook', false)).toMatch(/loopback/);
  });

  it('accepts public https targets, and loopback (http too) only with the development setting', async () => {
    expect(await targetProblem('https://93.184.216.34/hook', false)).toBeNull();
    expect(await targetProblem('http://93.184.216.34/hook', false)).toMatch(/https/);
    expect(await targetProblem('http://127.0.0.1:8080/hook', true)).toBeNull();
    expect(await targetProblem('https://user:pw@93.184.216.34/', false)).toMatch(/credentials/);
  });
});
