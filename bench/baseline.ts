// The two baselines of the benchmark, each in a process of its own like the app: a bare node:http answer and a
// bare Express "hello". Usage: node --import tsx bench/baseline.ts node|express; prints "listening <port>".
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

const kind = process.argv[2];
let server: http.Server;
if (kind === 'node') {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': '5' });
    res.end('hello');
  });
} else if (kind === 'express') {
  const app = express();
  app.disable('x-powered-by');
  app.get('/', (_req, res) => {
    res.type('text').send('hello');
  });
  server = http.createServer(app);
} else {
  console.error('usage: baseline.ts node|express');
  process.exit(2);
}
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
