// Serves the built app (dist/) for `npm start` and the e2e tests, on loopback only.
// Unknown paths are a 404 (never index.html), so a page the worker does not control yet gets no HTML
// for a request under /api. No dependencies: node:http only.
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// TESSERA_DIST: another build folder to serve (the benchmark builds apart so it never races `npm run build`).
const root = process.env.TESSERA_DIST ? join(resolve(process.env.TESSERA_DIST), sep) : fileURLToPath(new URL('../dist/', import.meta.url));
const port = Number(process.env.PORT || 4173);
if (!existsSync(join(root, 'index.html'))) {
  console.error(`serve: ${join(root, 'index.html')} not found; run \`npm run build\` first`);
  process.exit(1);
}
// The page's Content-Security-Policy, sent as a header with every HTML response: the one index.html
// carries in its <meta> (one policy, written once; the meta alone serves static hosts). Never sent with
// sw.js, whose own policy would bind the worker.
const pagePolicy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(readFileSync(join(root, 'index.html'), 'utf8'))?.[1];
if (!pagePolicy) {
  console.error('serve: index.html has no Content-Security-Policy meta');
  process.exit(1);
}
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
  '.bin': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
};

async function handle(req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed');
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
  } catch {
    return send(res, 400, 'bad request');
  }
  if (pathname.endsWith('/')) pathname += 'index.html';
  const file = join(root, pathname);
  if (!file.startsWith(root) || pathname.includes('\0')) return send(res, 404, 'not found');
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return send(res, 404, 'not found');
  const headers = {
    'Content-Type': types[extname(file)] ?? 'application/octet-stream',
    'Content-Length': info.size,
  };
  if (pathname === '/sw.js') Object.assign(headers, { 'Cache-Control': 'no-cache', 'Service-Worker-Allowed': '/' });
  else if (extname(file) === '.html') Object.assign(headers, { 'Cache-Control': 'no-cache', 'Content-Security-Policy': pagePolicy });
  res.writeHead(200, headers);
  if (req.method === 'HEAD') return res.end();
  createReadStream(file).on('error', () => res.destroy()).pipe(res);
}

function send(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
}

const onRequest = (req, res) => handle(req, res).catch(() => res.destroy());
// `localhost` may resolve to either loopback address: listen on both, on nothing else.
const listening = ['127.0.0.1', '::1'].map(
  (host) =>
    new Promise((resolve) => {
      const server = createServer(onRequest);
      server.once('error', (error) => resolve(host === '::1' && ['EADDRNOTAVAIL', 'EAFNOSUPPORT'].includes(error.code) ? null : Promise.reject(error)));
      server.listen(port, host, () => resolve(server));
    }),
);
Promise.all(listening).then(
  () => console.log(`Tessera at http://localhost:${port}`),
  (error) => {
    console.error(`serve: ${error.message}`);
    process.exit(1);
  },
);
