// A tiny HTTP proxy run as its own process by proxy-tls.test.ts: CONNECT tunnels and absolute-form
// forwarding. Prints {"port":N} first, then one JSON line per request it relays.
import { createServer, request } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

const log = (entry: object) => process.stdout.write(`${JSON.stringify(entry)}\n`);

const server = createServer((req, res) => {
  let target: URL;
  try {
    target = new URL(req.url ?? '');
  } catch {
    res.writeHead(400).end('absolute-form URL expected');
    return;
  }
  log({
    kind: 'forward',
    method: req.method,
    target: target.host,
    path: target.pathname,
    auth: 'authorization' in req.headers,
  });
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: req.headers,
    },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
});

/** Names under .tenant.test stand for a service on the public internet: they are reached on
 *  loopback, where the tests run it, but only the proxy knows that. */
function resolveTestName(host: string | undefined): string {
  return host === undefined || host.endsWith('.tenant.test') ? '127.0.0.1' : host;
}

server.on('connect', (req, clientSocket, head) => {
  const [host, port] = (req.url ?? '').split(':');
  log({ kind: 'connect', target: req.url });
  const upstream = connect(Number(port), resolveTestName(host), () => {
    clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    upstream.write(head);
    upstream.pipe(clientSocket);
    clientSocket.pipe(upstream);
  });
  upstream.on('error', () => clientSocket.destroy());
  clientSocket.on('error', () => upstream.destroy());
});

server.listen(0, '127.0.0.1', () => log({ port: (server.address() as AddressInfo).port }));
process.on('SIGTERM', () => process.exit(0));
