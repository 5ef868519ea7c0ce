// The server's connections, for two things Node's http.Server does not do by itself:
//
// - Shutdown. server.close() closes the connections that are idle at that moment and then
//   waits for the rest. A keep-alive connection that becomes idle afterwards, or one that has
//   sent only part of a request header, would then hold the process until the keep-alive
//   timeout. So each socket is tracked with the number of requests it has in flight: on
//   close, sockets with none are destroyed at once, and the others are closed right after
//   their last response (which says `Connection: close`).
// - Requests the HTTP parser refuses before any handler sees them (oversized headers, a
//   malformed chunked body, garbage instead of HTTP, a request past the header or request
//   timeout). Node answers those with a bare status line; here they get the same JSON error
//   body as every other error.
// - A request answered before its body was read (a 401 or 404 for a write): Node would read
//   and drop the rest of the body, however long it takes to come, to keep the connection for
//   a next request. The answer says `Connection: close` instead, and the connection is closed
//   right after it.
// - Connections refused because HTTP_MAX_CONNECTIONS are open, and connections the listener
//   could not accept (EMFILE: no file descriptor left): logged, at most every few seconds,
//   with how many. Neither stops the service.
//
// Over TLS the sockets that carry requests are the TLS sockets made after each handshake; the
// TCP sockets under them are tracked only while their handshake runs, so that closing ends
// handshakes that never finish (a client that connects and sends nothing).
import type { IncomingMessage, RequestListener, Server as HttpServer, ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import type { Logger } from 'pino';
import { fromClientError } from '../error-mapping.ts';
import { rawErrorResponse } from '../errors.ts';
import { securityHeaderObject } from './security-headers.ts';

interface SocketState {
  /** Responses to requests received on this socket that have not finished yet, oldest first. */
  inFlight: Set<ServerResponse>;
  /** The response given `Connection: close` while closing. */
  last?: ServerResponse;
}

/**
 * How long a socket whose request the parser refused stays open after its error answer was
 * sent: long enough for the client to read it before the socket closes, short enough that a
 * client that never closes its side cannot keep it.
 */
const CLIENT_ERROR_LINGER_MS = 1000;

/** Connections refused or lost are logged at most this often (a flood would fill the log). */
const WARNING_INTERVAL_MS = 10_000;

/** A warning logged at once, then at most every WARNING_INTERVAL_MS with the count since. */
class ThrottledWarning {
  readonly #log: Logger;
  readonly #message: string;
  #count = 0;
  #loggedAt = -Infinity;

  constructor(log: Logger, message: string) {
    this.#log = log;
    this.#message = message;
  }

  note(fields: Record<string, unknown>): void {
    this.#count++;
    const now = performance.now();
    if (now - this.#loggedAt < WARNING_INTERVAL_MS) return;
    this.#log.warn({ ...fields, count: this.#count }, this.#message);
    this.#count = 0;
    this.#loggedAt = now;
  }
}

export class ConnectionTracker {
  readonly #log: Logger;
  readonly #sockets = new Map<Socket, SocketState>();
  /** Sockets whose bytes the parser refused, being answered with an error. */
  readonly #refusing = new WeakSet<Socket>();
  /** TCP sockets of a TLS server whose handshake has not finished, by connectionKey. */
  readonly #handshaking = new Map<string, Socket>();
  #closing = false;
  readonly #dropped: ThrottledWarning;
  readonly #notAccepted: ThrottledWarning;

  constructor(log: Logger) {
    this.#log = log;
    this.#dropped = new ThrottledWarning(
      log,
      'connections refused: HTTP_MAX_CONNECTIONS connections are open; new ones are closed as they arrive',
    );
    this.#notAccepted = new ThrottledWarning(log, 'connections lost: the listener could not accept them');
  }

  /** True from the moment close() is called: /ready answers 503, responses close their connection. */
  get closing(): boolean {
    return this.#closing;
  }

  /** The request handler, counting each socket's requests in flight. */
  wrap(handler: RequestListener): RequestListener {
    return (req: IncomingMessage, res: ServerResponse) => {
      this.#requestStarted(req, res);
      handler(req, res);
    };
  }

  attach(server: HttpServer | HttpsServer): void {
    if (server instanceof TlsServer) {
      server.on('connection', (socket: Socket) => this.#handshakeStarted(socket));
      server.on('secureConnection', (socket: Socket) => {
        this.#handshaking.delete(connectionKey(socket));
        this.#track(socket);
      });
    } else {
      server.on('connection', (socket: Socket) => this.#track(socket));
    }
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => this.#clientError(error, socket));
    server.on('drop', () => this.#dropped.note({ max_connections: server.maxConnections }));
  }

  /**
   * From the moment the server listens: an error of the listener is then a connection it
   * could not accept (EMFILE when the process is out of file descriptors). That connection is
   * lost; the service goes on.
   */
  listening(server: HttpServer | HttpsServer): void {
    server.on('error', (error: NodeJS.ErrnoException) =>
      this.#notAccepted.note({ code: error.code, syscall: error.syscall }),
    );
  }

  /**
   * Stops accepting connections, destroys every socket with no request in flight, and lets
   * the others finish their responses, after which they close. Resolves once every
   * connection is gone.
   */
  close(server: HttpServer | HttpsServer): Promise<void> {
    this.#closing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.#handshaking.values()) socket.destroy();
    this.#handshaking.clear();
    for (const [socket, state] of this.#sockets) {
      if (state.inFlight.size === 0) {
        socket.destroy();
        continue;
      }
      closeAfterNewest(state);
    }
    return closed;
  }

  #handshakeStarted(socket: Socket): void {
    const key = connectionKey(socket);
    this.#handshaking.set(key, socket);
    socket.once('close', () => {
      if (this.#handshaking.get(key) === socket) this.#handshaking.delete(key);
    });
  }

  #track(socket: Socket): SocketState {
    const state: SocketState = { inFlight: new Set() };
    this.#sockets.set(socket, state);
    socket.once('close', () => this.#sockets.delete(socket));
    return state;
  }

  #requestStarted(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    const state = this.#sockets.get(socket) ?? this.#track(socket);
    const inFlight = state.inFlight;
    inFlight.add(res);
    if (hasBody(req)) closeIfAnsweredBeforeBody(req, res);
    if (this.#closing) closeAfterNewest(state);
    // A response emits 'close' once it has finished, and also when its connection is lost
    // first: one listener sees both ends, and `on` costs less than `once` on every request.
    res.on('close', () => {
      if (!inFlight.delete(res)) return;
      // A response that had started before close() could not say Connection: close; its
      // socket is closed here instead, once everything written to it has been sent.
      if (this.#closing && inFlight.size === 0) socket.destroySoon();
    });
  }

  #clientError(error: NodeJS.ErrnoException, socket: Socket): void {
    // A reset connection cannot be answered. Bytes that keep arriving after the first error
    // raise it again; the first answer stands.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    if (this.#refusing.has(socket)) return;
    this.#refusing.add(socket);
    const apiError = fromClientError(error);
    this.#log.warn(
      {
        error: apiError.code,
        status: apiError.status,
        parser: error.code,
        remote: socket.remoteAddress,
        message: apiError.message,
      },
      'request refused by the HTTP parser',
    );
    // Requests read whole before the bytes that broke are answered first, in order, and an
    // answer already started is never cut by a second status line; the error answer comes
    // after them. A request whose body was cut by the error gets the error as its answer.
    const state = this.#sockets.get(socket);
    const answering = [...(state?.inFlight ?? [])].filter(
      (res) => !res.writableFinished && (res.headersSent || res.req.complete),
    );
    const refuse = () => {
      if (!socket.writable) return;
      socket.end(rawErrorResponse(apiError, securityHeaderObject(socket)));
      const linger = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS);
      linger.unref();
      socket.once('close', () => clearTimeout(linger));
    };
    if (answering.length === 0) {
      refuse();
      return;
    }
    const done = (res: ServerResponse) =>
      new Promise((resolve) => {
        res.once('finish', resolve);
        res.once('close', resolve);
      });
    void Promise.all(answering.map(done)).then(refuse);
  }
}

/** Whether the request says a body follows its headers. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Gives the response `Connection: close` if its head goes out while the request's body has
 * not all arrived: Node then closes the connection once the answer is sent, instead of
 * reading the rest of the body first. Only requests with a body pay for this (polls have
 * none), and a body read whole before the answer keeps its connection.
 */
function closeIfAnsweredBeforeBody(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res);
  res.writeHead = function writeHeadClosingEarly(this: ServerResponse, ...args: unknown[]) {
    if (!req.complete) this.setHeader('connection', 'close');
    return (writeHead as (...a: unknown[]) => ServerResponse)(...args);
  };
}

/**
 * The addresses and ports of both ends: the same for a TCP socket and the TLS socket over it
 * (Node links the two by no public property), and unique among open connections.
 */
function connectionKey(socket: Socket): string {
  return `${socket.remoteAddress}|${socket.remotePort}|${socket.localAddress}|${socket.localPort}`;
}

/**
 * Puts `Connection: close` on the newest response of a socket (Node then ends the socket once
 * that response is sent), and takes it off an older one that had it: requests pipelined
 * behind it are still answered, in order, before the connection closes.
 */
function closeAfterNewest(state: SocketState): void {
  let newest: ServerResponse | undefined;
  for (const res of state.inFlight) newest = res;
  if (newest === undefined || newest === state.last || newest.headersSent) return;
  if (state.last && !state.last.headersSent) state.last.removeHeader('connection');
  newest.setHeader('connection', 'close');
  state.last = newest;
}
