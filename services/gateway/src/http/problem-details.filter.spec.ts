import { BadRequestException, PayloadTooLargeException, type ArgumentsHost } from '@nestjs/common';
import { ProblemDetailsFilter } from './problem-details.filter.js';

/** Runs the filter on `exception` and returns the problem it would send. */
function problemFor(exception: unknown) {
  let sent = '';
  const res = {
    setHeader: () => res,
    status: () => res,
    type: () => res,
    send: (body: string) => {
      sent = body;
      return res;
    },
  };
  const host = {
    switchToHttp: () => ({
      getRequest: () => ({ method: 'POST', path: '/x', originalUrl: '/x' }),
      getResponse: () => res,
    }),
  } as unknown as ArgumentsHost;
  new ProblemDetailsFilter().catch(exception, host);
  return JSON.parse(sent) as { status: number; code: string; detail: string };
}

describe('ProblemDetailsFilter', () => {
  it('answers multer failures in our words, never the library message', () => {
    const unexpected = problemFor(new BadRequestException('Unexpected field - file2'));
    expect(unexpected).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(unexpected.detail).not.toMatch(/Unexpected field|file2/);
    const tooLarge = problemFor(new PayloadTooLargeException('File too large'));
    expect(tooLarge).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(tooLarge.detail).toMatch(/10 MB/);
  });
});
