// A loopback stand-in of raw.githubusercontent.com for the CI snippets: an HTTPS server (a
// self-signed certificate for that name) that serves this repository's files under
// /tenant-scan/tenant-scan/<ref>/, and an HTTP proxy that tunnels CONNECTs for the host to it. A
// snippet's curl reaches it through HTTPS_PROXY and trusts it through CURL_CA_BUNDLE.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import selfsigned from 'selfsigned';

export const RAW_HOST = 'raw.githubusercontent.com';

export interface RawHost {
  /** Env for a snippet's shell: HTTPS_PROXY and the CA bundle curl trusts. */
  env: Record<string, string>;
  /** Paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves `root`'s files as raw.githubusercontent.com/tenant-scan/tenant-scan/<any ref>/<path>. */
export async function startRawHost(root: string): Promise<RawHost> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: RAW_HOST }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: RAW_HOST }] },
    ],
  });
  const dir = await mkdtemp(join(tmpdir(), 'raw-host-'));
  const ca = join(dir, 'ca.pem');
  await writeFile(ca, pems.cert);
  const requests: string[] = [];
  const files: Server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', `https://${RAW_HOST}`).pathname);
    requests.push(path);
    const file = /^\/tenant-scan\/tenant-scan\/[^/]+\/(.+)$/.exec(path)?.[1];
    const safe =
      file && !normalize(file).startsWith('..') ? join(root, normalize(file)) : undefined;
    readFile(safe ?? '/nonexistent').then(
      (bytes) => res.writeHead(200, { 'content-type': 'text/plain' }).end(bytes),
      () => res.writeHead(404).end('404: Not Found'),
    );
  });
  await listen(files);
  const proxy: HttpServer = createHttpServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req, socket, head) => {
    if (!req.url?.startsWith(`${RAW_HOST}:`)) return socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const upstream = connect(port(files), '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await listen(proxy);
  return {
    env: {
      HTTPS_PROXY: `http://127.0.0.1:${port(proxy)}`,
      https_proxy: `http://127.0.0.1:${port(proxy)}`,
      CURL_CA_BUNDLE: ca,
      SSL_CERT_FILE: ca,
    },
    requests,
    async close() {
      for (const server of [files, proxy]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function listen(server: Server | HttpServer): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}

function port(server: Server | HttpServer): number {
  return (server.address() as AddressInfo).port;
}
