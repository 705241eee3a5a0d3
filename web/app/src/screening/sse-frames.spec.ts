import { parseSseFrames } from './sse-frames.js';

describe('parseSseFrames', () => {
  it('splits whole frames and keeps the unfinished rest for the next chunk', () => {
    const first = parseSseFrames('event: ready\ndata: {}\n\nevent: monitoring.alert\ndata: {"a"');
    expect(first.frames).toEqual([{ event: 'ready', data: '{}' }]);
    const second = parseSseFrames(`${first.rest}:1}\n\n`);
    expect(second.frames).toEqual([{ event: 'monitoring.alert', data: '{"a":1}' }]);
    expect(second.rest).toBe('');
  });

  it('joins multi-line data, reads CRLF and skips comment-only keep-alives', () => {
    const { frames } = parseSseFrames('data: line one\r\ndata: line two\r\n\r\n: keep-alive\n\n');
    expect(frames).toEqual([{ event: 'message', data: 'line one\nline two' }]);
  });
});
