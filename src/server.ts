// Listen and shut down gracefully, nothing else.
//
// On SIGTERM or SIGINT: stop accepting connections, let the requests in flight finish, close the database pool,
// exit 0 (the API contract). Keep-alive connections are closed as soon as they carry no request, so a browser's
// open connection cannot hold the process; responses sent during the drain say `Connection: close`. Requests
// still running after the drain timeout are cut, and the process exits 1 so that the cut shows in the logs.
// A second signal cuts at once. A cluster worker (src/cluster.ts) drains on SIGTERM alone and on its primary's word.
import http, { type Server, type ServerResponse } from 'node:http';
import type { Express } from 'express';

const POOL_CLOSE_TIMEOUT_MS = 5_000;

export interface ListenOptions {
  port: number;
  /** How long requests in flight may take to finish after the signal. */
  drainTimeoutMs: number;
  /** Closes what the app holds (the database pool) once no request is left. */
  onClose: () => Promise<void>;
  log?: (message: string) => void;
  /** The signals that start the drain (a second one cuts). Default SIGTERM and SIGINT. */
  signals?: readonly NodeJS.Signals[];
  /** Receives the drain and the cut, for a shutdown that comes by other means than a signal (a cluster's primary). */
  control?: (shutdown: ShutdownControl) => void;
}

export interface ShutdownControl {
  /** Starts the drain, `reason` naming its cause in the log; does nothing when the drain has begun. */
  drain(reason: string): void;
  /** Cuts the requests still in flight (exit code 1). */
  cut(): void;
}

export function listen(app: Express, options: ListenOptions): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = serverFor(app);
    // A message, not a crash, when listening fails (port in use).
    server.once('error', reject);
    server.listen(options.port, () => {
      server.off('error', reject);
      resolve(server);
    });
    drainOnSignal(server, options);
  });
}

/**
 * An HTTP server for the app whose requests and responses are made with the app's prototypes from the start.
 *
 * Express gives every request and response its app's prototypes when it takes them (`Object.setPrototypeOf` in
 * `app.handle`). V8 then moves the object to a hidden class of its own, outside any shared tree, and every property
 * added to it afterwards (some thirty per request: the router's, the session's, passport's, i18next's, ours) makes
 * new hidden classes for that one request, their descriptors copied again with each property, and every place that
 * reads a request's or response's property meets a class it has never seen. Here each is an instance of a subclass
 * of Node's class whose prototype is put in front of the app's and becomes the app's: Express then sets the prototype
 * the object already has, which V8 does not count as a change, and the hidden classes are shared from request to
 * request (bench/README.md, 2026-12-04 second). A subclass, not a constructor function calling Node's: an object
 * begun by a plain function gets too few slots of its own and holds its properties in a dictionary. Meant once per
 * app: a second server for the same app puts its classes in front again, and the first one's requests are then
 * reshaped by Express as before (still correct, only slower).
 */
export function serverFor(app: Express): Server {
  class Request extends http.IncomingMessage {}
  class Response extends http.ServerResponse {}
  Object.setPrototypeOf(Request.prototype, app.request);
  Object.setPrototypeOf(Response.prototype, app.response);
  app.request = Request.prototype as unknown as Express['request'];
  app.response = Response.prototype as unknown as Express['response'];
  return http.createServer({ IncomingMessage: Request, ServerResponse: Response }, app);
}

function drainOnSignal(server: Server, { drainTimeoutMs, onClose, log = console.log, signals = ['SIGTERM', 'SIGINT'], control }: ListenOptions): void {
  const inFlight = new Set<ServerResponse>();
  let closing = false;
  let exiting = false;

  // Prepended, so that it runs before the app could send headers.
  server.prependListener('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    if (closing) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inFlight.delete(res);
      // The connection that carried it is idle now (unless it is closing anyway): let it go.
      if (closing) server.closeIdleConnections();
    });
  });

  /** Closes the pool and exits; whichever comes first (all finished, or the cut) decides the code. */
  const exit = async (code: number) => {
    if (exiting) return;
    exiting = true;
    process.exitCode = code;
    // A pool that cannot close (a query that never returns) must not keep the process alive.
    setTimeout(() => {
      log('Closing the database pool timed out.');
      process.exit(1);
    }, POOL_CLOSE_TIMEOUT_MS).unref();
    try {
      await onClose();
      log('Database pool closed.');
    } catch (err) {
      log(`Closing the database pool failed: ${err instanceof Error ? err.message : String(err)}`);
      code = 1;
    }
    process.exit(code);
  };

  const cut = () => {
    log(`Shutdown: cutting ${inFlight.size} request(s) still in flight.`);
    void exit(1);
    server.closeAllConnections();
  };

  const drain = (reason: string) => {
    if (closing) return;
    closing = true;
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    const timer = setTimeout(cut, drainTimeoutMs);
    server.close(() => {
      clearTimeout(timer);
      log('All requests finished.');
      void exit(0);
    });
    server.closeIdleConnections();
    // Said once it is so: the listening socket is closed (a reader of the log may connect at once to check).
    log(`${reason}: accepting no new connections, finishing ${inFlight.size} request(s) in flight.`);
  };
  for (const signal of signals) process.on(signal, () => (closing ? cut() : drain(signal)));
  control?.({ drain, cut });
}
