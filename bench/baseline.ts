// The baselines of the benchmark, each in a process of its own like the app: a bare node:http answer, a bare
// Express "hello" served as Express serves it (`http.createServer(app)`, what the targets are measured
// against), and the same app served as the portal serves its own (src/server.ts `serverFor`: requests and responses
// made with the app's prototypes). Usage: node --import tsx bench/baseline.ts node|express|express-served; prints
// "listening <port>".
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { serverFor } from '../src/server.js';

const kind = process.argv[2];
let server: http.Server;
if (kind === 'node') {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': '5' });
    res.end('hello');
  });
} else if (kind === 'express' || kind === 'express-served') {
  const app = express();
  app.disable('x-powered-by');
  app.get('/', (_req, res) => {
    res.type('text').send('hello');
  });
  server = kind === 'express' ? http.createServer(app) : serverFor(app);
} else {
  console.error('usage: baseline.ts node|express|express-served');
  process.exit(2);
}
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
