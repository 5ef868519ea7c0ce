// One HTTP/1.1 connection driven byte by byte: the test decides exactly what is sent and when
// (half a request header, a body in parts, requests pipelined behind each other, a broken
// chunked body), and reads every answer as it arrives, interim `100 Continue` answers
// included. Answers are read by Content-Length, which is how the service sends them.
import { connect, type Socket } from 'node:net';
import { connect as connectTls, type ConnectionOptions } from 'node:tls';

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  json(): any;
  /** Date.now() when the answer was complete. */
  receivedAt: number;
}

export class RawConnection {
  readonly socket: Socket;
  /** Resolves with Date.now() when the connection has closed (from either side). */
  readonly closed: Promise<number>;
  #buffer = Buffer.alloc(0);
  #answers: RawAnswer[] = [];
  #waiting: { resolve: (answer: RawAnswer) => void; reject: (error: Error) => void }[] = [];
  #ended = false;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#parse();
    });
    // The service may reset a connection it closes; that is a close like any other here.
    socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.#ended = true;
        for (const waiter of this.#waiting.splice(0))
          waiter.reject(
            new Error(
              `the connection closed before an answer; unread: ${this.#buffer.toString('latin1').slice(0, 200)}`,
            ),
          );
        resolve(Date.now());
      }),
    );
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** The same over TLS: resolves once the handshake is done. */
  static openTls(url: string, options: ConnectionOptions): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connectTls({ ...options, port: Number(port), host: hostname });
      socket.once('secureConnect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Resolves once the bytes have been handed to the operating system. */
  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(data, (error) => (error ? reject(error) : resolve())));
  }

  /** The next answer on this connection, in order. */
  next(): Promise<RawAnswer> {
    const ready = this.#answers.shift();
    if (ready) return Promise.resolve(ready);
    if (this.#ended) return Promise.reject(new Error('the connection is closed'));
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  #parse(): void {
    for (;;) {
      const headEnd = this.#buffer.indexOf('\r\n\r\n');
      if (headEnd === -1) return;
      const [statusLine, ...lines] = this.#buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      if (headers['transfer-encoding']) throw new Error('chunked answers are not read by this helper');
      const length = status < 200 || status === 204 || status === 304 ? 0 : Number(headers['content-length'] ?? 0);
      if (this.#buffer.length < headEnd + 4 + length) return;
      const body = this.#buffer.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
      this.#buffer = this.#buffer.subarray(headEnd + 4 + length);
      const answer: RawAnswer = { status, headers, body, json: () => JSON.parse(body), receivedAt: Date.now() };
      const waiter = this.#waiting.shift();
      if (waiter) waiter.resolve(answer);
      else this.#answers.push(answer);
    }
  }
}
