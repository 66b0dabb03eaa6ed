// Serves a model directory over HTTP on 127.0.0.1, for tests of fetching the model.
// It runs in its own process: tests drive git-mem with spawnSync, which would
// block a server in their own event loop.
//
//   node test/helpers/model-server.mjs DIR   prints "port <n>", then serves DIR/<file> under /model/;
//   GET /count answers the number of model requests so far.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const dir = process.argv[2];
let count = 0;
const server = http.createServer((req, res) => {
  const url = req.url ?? '';
  if (url === '/count') return void res.end(String(count));
  count++;
  const file = path.normalize(url.replace(/^\/model\//, ''));
  const full = path.join(dir, file);
  if (!url.startsWith('/model/') || file.startsWith('..') || !fs.existsSync(full) || !fs.statSync(full).isFile()) return void res.writeHead(404).end();
  const body = fs.readFileSync(full);
  res.writeHead(200, { 'content-length': String(body.length) }).end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`port ${server.address().port}`));
// Ends with its parent.
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
