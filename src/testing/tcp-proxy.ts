// A TCP proxy between the app and PostgreSQL that a test can break and mend, to simulate an outage of a server
// the test may not stop (it is shared with other test runs):
//   cut()      every connection is reset and new ones are reset on arrival (the server went away)
//   stall()    every connection is reset and new ones are accepted but never answered (packets vanish)
//   restore()  new connections reach the server again
//   cutWhenSent(text)  the connection whose next packet to the server contains `text` is reset before the
//              server sees that packet: a write interrupted at a chosen statement.
import net from 'node:net';

type Mode = 'open' | 'cut' | 'stall';

interface Trap {
  text: string;
  sprung: () => void;
}

export class TcpProxy {
  private readonly server = net.createServer((client) => this.accept(client));
  private readonly sockets = new Set<net.Socket>();
  private readonly upstreams = new Set<net.Socket>();
  private mode: Mode = 'open';
  private trap: Trap | null = null;

  private constructor(private readonly target: { host: string; port: number }) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** The same database URL, through this proxy. */
  urlFor(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** The local ports of the proxy's connections to the server: the `client_port` the server sees for them. */
  get upstreamPorts(): number[] {
    return [...this.upstreams].map((s) => s.localPort).filter((p): p is number => p !== undefined);
  }

  cut(): void {
    this.mode = 'cut';
    this.resetAll();
  }

  stall(): void {
    this.mode = 'stall';
    this.resetAll();
  }

  restore(): void {
    this.mode = 'open';
  }

  /** Resolves once a connection was reset because it was about to send `text`. */
  cutWhenSent(text: string): Promise<void> {
    return new Promise((resolve) => {
      this.trap = { text, sprung: resolve };
    });
  }

  async close(): Promise<void> {
    this.resetAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private resetAll(): void {
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.sockets.clear();
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    // A reset is the point of this proxy; its errors are expected on both sides.
    socket.on('error', () => {});
  }

  private accept(client: net.Socket): void {
    if (this.mode === 'cut') return void client.resetAndDestroy();
    this.track(client);
    if (this.mode === 'stall') return;
    const upstream = net.connect(this.target.port, this.target.host);
    this.track(upstream);
    this.upstreams.add(upstream);
    upstream.on('close', () => this.upstreams.delete(upstream));
    // One side closing closes the other, as a real connection would end.
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      const trap = this.trap;
      if (trap && chunk.includes(trap.text)) {
        this.trap = null;
        client.resetAndDestroy();
        upstream.resetAndDestroy();
        trap.sprung();
        return;
      }
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once('drain', () => client.resume());
      }
    });
  }
}
