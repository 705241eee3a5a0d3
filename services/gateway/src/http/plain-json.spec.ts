import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
import { AsyncLocalStorage } from 'node:async_hooks';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { plainJson } from './plain-json.js';

const LIMIT = 1024;
const json = ['application/json', 'application/*+json'];

/** What a route would see: the parsed body (or its absence), or body-parser's error status and type. */
function appWith(parser: express.RequestHandler): Express {
  const app = express();
  app.use(parser);
  app.post('/', (req: Request, res: Response) => {
    res.json({ has: 'body' in req, body: (req.body as unknown) ?? null });
  });
  const failed: ErrorRequestHandler = (
    error: { status?: number; type?: string; message?: string },
    _req,
    res,
    _next,
  ) => {
    res.status(error.status ?? 500).json({ type: error.type, message: error.message });
  };
  app.use(failed);
  return app;
}

const plain = appWith(plainJson(express.json({ limit: LIMIT, type: json }), LIMIT));
const bodyParser = appWith(express.json({ limit: LIMIT, type: json }));

type Case = [name: string, contentType: string | undefined, body: string | Buffer];

const CASES: Case[] = [
  ['an object', 'application/json', '{"name":"Jane Doe","entityType":"individual"}'],
  ['an array', 'application/json', '[{"name":"Jane"}]'],
  ['utf-8 text', 'application/json; charset=utf-8', '{"name":"Jürgen Müller 金正恩"}'],
  ['utf-8 text, upper-case charset', 'Application/JSON; Charset=UTF-8', '{"name":"Jürgen"}'],
  ['invalid utf-8', 'application/json', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ['a byte order mark', 'application/json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')])],
  ['leading whitespace', 'application/json', '  \n {"a":1}'],
  ['a string at the top', 'application/json', '"Jane"'],
  ['a number at the top', 'application/json', '42'],
  ['null at the top', 'application/json', 'null'],
  ['broken JSON', 'application/json', '{"name": "Jane"'],
  ['trailing garbage', 'application/json', '{"a":1} x'],
  ['whitespace only', 'application/json', '   '],
  ['over the limit', 'application/json', `{"a":"${'x'.repeat(LIMIT)}"}`],
  ['exactly the limit', 'application/json', `{"a":"${'x'.repeat(LIMIT - 8)}"}`],
  ['latin1', 'application/json; charset=latin1', '{"a":"b"}'],
  ['utf-16', 'application/json; charset=utf-16', '{"a":"b"}'],
  ['a +json type', 'application/problem+json', '{"a":1}'],
  ['text/plain', 'text/plain', '{"a":1}'],
  ['no content type', undefined, '{"a":1}'],
];

describe('plainJson', () => {
  it.each(CASES)('answers %s exactly as body-parser does', async (_name, contentType, body) => {
    const send = (app: Express) => {
      const test = request(app).post('/');
      if (contentType !== undefined) test.set('content-type', contentType);
      return test.send(body);
    };
    const [a, b] = [await send(plain), await send(bodyParser)];
    expect({ status: a.status, body: a.body as unknown }).toEqual({ status: b.status, body: b.body as unknown });
  });

  it('answers a chunked body and an empty one as body-parser does', async () => {
    const empty = (app: Express) => request(app).post('/').set('content-type', 'application/json').send('');
    expect((await empty(plain)).body).toEqual((await empty(bodyParser)).body);
    const chunked = async (app: Express) => {
      const server = app.listen(0);
      try {
        const { port } = server.address() as AddressInfo;
        return await rawExchange(
          port,
          'POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n' +
            'connection: close\r\n\r\n7\r\n{"a":1}\r\n0\r\n\r\n',
        );
      } finally {
        server.close();
      }
    };
    const answer = await chunked(plain);
    expect(answer).toContain('{"has":true,"body":{"a":1}}');
    expect(answer.split('\r\n')[0]).toBe((await chunked(bodyParser)).split('\r\n')[0]);
  });

  it("goes on in the request's async context (its request id), as after body-parser", async () => {
    const storage = new AsyncLocalStorage<string>();
    const app = express();
    app.use((req, _res, next) => storage.run(String(req.headers['x-request-id']), next));
    app.use(plainJson(express.json({ limit: LIMIT, type: json }), LIMIT));
    app.post('/', (req, res) => res.json({ id: storage.getStore() ?? null, body: req.body as unknown }));
    const answer = await request(app).post('/').set('x-request-id', 'r-1').send({ a: 1 });
    expect(answer.body).toEqual({ id: 'r-1', body: { a: 1 } });
    const replayed = await request(app)
      .post('/')
      .set('x-request-id', 'r-2')
      .set('content-type', 'application/json')
      .send(' {"a":2}');
    expect(replayed.body).toEqual({ id: 'r-2', body: { a: 2 } });
  });

  it('answers a body cut short (the connection closed before its announced length) with 400', async () => {
    const seen: Array<{ status: number; type?: string }> = [];
    const app = express();
    app.use(plainJson(express.json({ limit: LIMIT, type: json }), LIMIT));
    app.post('/', (_req, res) => res.json({ parsed: true }));
    const failed: ErrorRequestHandler = (error: { status: number; type?: string }, _req, res, _next) => {
      seen.push({ status: error.status, type: error.type });
      res.status(error.status).end();
    };
    app.use(failed);
    const server = app.listen(0);
    try {
      const { port } = server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 20\r\n\r\n{"a":');
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
      for (let i = 0; i < 50 && seen.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(seen).toEqual([{ status: 400, type: expect.stringMatching(/^request\.(aborted|size\.invalid)$/) }]);
    } finally {
      server.close();
    }
  });
});

function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (data: Buffer) => (answer += data.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}
