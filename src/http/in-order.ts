import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Middleware that every request passes, run one after another as one layer of the router they are mounted in.
 * Express's stepping from layer to layer (matching the layer's path, its parameters, the callbacks and closures
 * it makes for each) costs a request more than most of these handlers do: a health check spent a fifth of what
 * it allocated in the router (bench/README.md, "2026-12-04"). Only for handlers without a path of their own
 * that pass every request on or answer it; a handler's error, thrown, passed to `next` or a rejected promise,
 * leaves the sequence as it would leave Express's layer.
 */
export function inOrder(...handlers: RequestHandler[]): RequestHandler {
  if (handlers.length === 1) return handlers[0];
  return function sequence(req: Request, res: Response, next: NextFunction) {
    let i = 0;
    const step = (err?: unknown): void => {
      // 'route' from a middleware means no error (Express goes on to the next layer); 'router' leaves the router.
      if (err !== undefined && err !== null && err !== 'route') {
        next(err);
        return;
      }
      if (i === handlers.length) {
        next();
        return;
      }
      const handler = handlers[i++];
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.catch((error: unknown) => step(error ?? new Error('Rejected promise')));
      } catch (error) {
        step(error);
      }
    };
    step();
  };
}
