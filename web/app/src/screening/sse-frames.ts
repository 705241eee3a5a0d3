/** One Server-Sent Events frame: its `event:` name and its joined `data:` lines. */
export type SseFrame = { event: string; data: string };

/** Splits a growing SSE text buffer into whole frames and the unfinished rest. */
export function parseSseFrames(buffer: string): { frames: SseFrame[]; rest: string } {
  const parts = buffer.replace(/\r\n/g, '\n').split('\n\n');
  const rest = parts.pop() ?? '';
  const frames = parts.flatMap((block) => {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    return data.length > 0 || event !== 'message' ? [{ event, data: data.join('\n') }] : [];
  });
  return { frames, rest };
}
