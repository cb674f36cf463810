// negotiator 1.x ships no types (DefinitelyTyped's describe 0.6): the part src/http/compressed-body.ts uses.
declare module 'negotiator' {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    /** The best of `available` the request accepts; among equals, the first of `preferred`. */
    encoding(available: string[], options?: { preferred?: string[] }): string | undefined;
  }
}
