// Listen and shut down gracefully, nothing else.
import type { Server } from 'node:http';
import type { Express } from 'express';

export function listen(app: Express, port: number, onClose: () => Promise<void>): Promise<Server> {
  return new Promise((resolve) => {
    const server = app.listen(port, () => resolve(server));
    let closing = false;
    const shutdown = () => {
      if (closing) return;
      closing = true;
      // Stop accepting, let requests in flight finish, then close the pool.
      server.close(async () => {
        await onClose().catch(() => {});
        process.exit(0);
      });
      server.closeIdleConnections();
      setTimeout(() => process.exit(0), 10_000).unref();
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
  });
}
