// A GET of a presigned address over our own connection (no proxy), reading into ONE reused buffer
// (the socket's `onread`): no allocation per read, so a 500 MB report costs neither ~100 MB of
// garbage waiting for V8 nor the CPU of collecting it (bench/README.md has the figures). undici
// has no such mode. A new connection per file: the storage origin is not the API's.
import * as net from 'node:net';
import * as tls from 'node:tls';
import { abortReason } from './abort.js';
import { FileWriter, WRITER_SLACK_BYTES } from './file-writer.js';
import { BodyDecoder, framingOf, HeadReader, type ResponseHead } from './http1-response.js';
import type { FileGet, FileReply } from './download.js';
import { RequestTimeout } from './transport.js';

/** One read always fits in the writer's slack: the writer never has to copy a read aside. */
const READ_BUFFER_BYTES = WRITER_SLACK_BYTES;

export interface DirectTls {
  /** Trusted CAs when not the defaults (NODE_EXTRA_CA_CERTS read from the client's env). */
  ca?: string[];
}

/**
 * GETs `req.url`; a 2xx body goes into a new file at `temp` (created exclusively). When this
 * settles the file is closed. On rejection the file may exist: the caller removes it.
 */
export function directGetIntoFile(
  req: FileGet,
  tlsOptions: DirectTls,
  temp: string,
): Promise<FileReply> {
  return new Promise<FileReply>((resolve, reject) => {
    new DirectGet(req, tlsOptions, temp, resolve, reject).start();
  });
}

class DirectGet {
  private socket: net.Socket | undefined;
  private readonly heads = new HeadReader();
  private head: ResponseHead | undefined;
  private body: BodyDecoder | undefined;
  private file: FileWriter | undefined;
  /** The file's creation, from the head's arrival; never rejects (a failure ends the GET). */
  private opening: Promise<FileWriter | undefined> | undefined;
  /** Body bytes that came with the head, kept while the file is being created. */
  private early: Buffer | undefined;
  private settled = false;
  private connectionEnded = false;
  private readonly onAbort = () => this.fail(abortReason(this.req.signal!));

  constructor(
    private readonly req: FileGet,
    private readonly tlsOptions: DirectTls,
    private readonly temp: string,
    private readonly resolve: (reply: FileReply) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  start(): void {
    if (this.req.signal?.aborted) return this.fail(abortReason(this.req.signal));
    let head: string;
    try {
      head = this.requestHead();
    } catch (error) {
      return this.fail(error);
    }
    this.req.signal?.addEventListener('abort', this.onAbort, { once: true });
    const socket = this.connect();
    this.socket = socket;
    socket.setTimeout(this.req.timeoutMs, () => this.fail(new RequestTimeout(this.req.timeoutMs)));
    socket.once(socket instanceof tls.TLSSocket ? 'secureConnect' : 'connect', () =>
      socket.write(head),
    );
    socket.on('error', (error) => this.fail(error));
    socket.on('end', () => this.ended());
    socket.on('close', () => this.ended());
  }

  private connect(): net.Socket {
    const { url } = this.req;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const onread = {
      buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
      callback: (length: number, buffer: Buffer) => this.received(buffer.subarray(0, length)),
    };
    if (url.protocol === 'http:') {
      return net.connect({ host, port: Number(url.port || 80), onread });
    }
    const options: tls.ConnectionOptions & { onread: typeof onread } = {
      host,
      port: Number(url.port || 443),
      servername: net.isIP(host) ? undefined : host,
      ALPNProtocols: ['http/1.1'],
      ca: this.tlsOptions.ca,
      onread, // honoured by tls.connect when no `socket` is given (Node docs); missing in @types/node
    };
    return tls.connect(options);
  }

  private requestHead(): string {
    const { url, headers } = this.req;
    const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
    for (const [name, value] of Object.entries(headers)) {
      if (/[\0\r\n]/.test(name + value))
        throw new Error(`request header ${name} holds a line break`);
      lines.push(`${name}: ${value}`);
    }
    lines.push('connection: close');
    return `${lines.join('\r\n')}\r\n\r\n`;
  }

  /** The socket's read buffer is reused after this returns: nothing may keep a view of `bytes`.
   *  Returning false pauses the socket. */
  private received(bytes: Buffer): boolean {
    if (this.settled) return false;
    try {
      if (!this.head) return this.receivedHead(bytes);
      if (!this.file) {
        // Paused, but TLS still hands over the records it had already decrypted (16 KiB each).
        this.early = Buffer.concat([this.early ?? Buffer.alloc(0), bytes]);
        return false;
      }
      return this.receivedBody(bytes);
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  private receivedHead(bytes: Buffer): boolean {
    const found = this.heads.feed(bytes);
    if (!found) return true;
    this.head = found.head;
    if (found.head.status < 200 || found.head.status >= 300) {
      this.succeed(); // redirects and errors: the status and headers are all the caller needs
      return false;
    }
    this.body = new BodyDecoder(framingOf(found.head));
    this.early = Buffer.from(bytes.subarray(found.bodyStart));
    this.opening = FileWriter.create(this.temp).then(
      (file) => {
        this.fileOpened(file);
        return file;
      },
      (error: unknown) => {
        this.fail(error);
        return undefined;
      },
    );
    return false;
  }

  /** While the file is being created nothing is read (the socket is paused). */
  private fileOpened(file: FileWriter): void {
    if (this.settled) return; // fail() closes it once the opening settles
    this.file = file;
    const early = this.early!;
    this.early = undefined;
    if (this.receivedBody(early)) this.socket!.resume();
    if (this.connectionEnded) this.ended();
  }

  private receivedBody(bytes: Buffer): boolean {
    let more = true;
    this.body!.feed(bytes, (data) => {
      more = this.file!.append(data);
    });
    if (this.body!.complete) {
      this.finish();
      return false;
    }
    if (!more) {
      this.file!.writable().then(
        () => this.socket!.resume(),
        (error) => this.fail(error),
      );
    }
    return more;
  }

  private ended(): void {
    this.connectionEnded = true;
    if (this.settled || !this.head) {
      if (!this.settled) this.fail(new Error('the connection closed before a response arrived'));
      return;
    }
    if (!this.file) return; // still creating the file; the body's end is checked once it is open
    try {
      this.body!.end();
      this.finish();
    } catch (error) {
      this.fail(error);
    }
  }

  private finish(): void {
    if (this.settled) return;
    this.settled = true;
    this.cleanUp();
    const file = this.file!;
    file.finish().then(
      async (written) => {
        await file.close();
        this.resolve({ ...this.reply(), written });
      },
      async (error: unknown) => {
        await file.close().catch(() => undefined);
        this.reject(error);
      },
    );
  }

  private succeed(): void {
    this.settled = true;
    this.cleanUp();
    this.resolve(this.reply());
  }

  private fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.cleanUp();
    // The caller removes the file once this rejects: it must exist and be closed by then, or a
    // creation still under way would leave an empty file behind the removal.
    void this.closeFile().then(() => this.reject(error));
  }

  private async closeFile(): Promise<void> {
    const file = this.file ?? (await this.opening);
    await file?.close().catch(() => undefined);
  }

  private cleanUp(): void {
    this.req.signal?.removeEventListener('abort', this.onAbort);
    this.socket?.destroy();
  }

  private reply(): FileReply {
    return { status: this.head!.status, headers: this.head!.headers };
  }
}
