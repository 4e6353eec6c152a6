import { pathToFileURL } from 'node:url';
import http from 'node:http';

export interface RoundRobinProxy {
  url: string;
  /** The instances requests go to, in turn (a test or bench changes it between rounds). */
  targets: number[];
  close(): Promise<void>;
}

/**
 * A small HTTP load balancer for tests and benchmarks of several instances on one machine: round robin
 * over `targets` (ports on 127.0.0.1), streaming both ways (server-sent events pass through), with
 * keep-alive connections to the instances. A request may name its instance (`x-instance`, an index) and
 * its client address (`x-client-address`, passed on as X-Forwarded-For; the instances trust the proxy).
 */
export function startRoundRobinProxy(targets: number[]): Promise<RoundRobinProxy> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  const proxy: RoundRobinProxy = { url: '', targets, close: async () => undefined };
  const server = http.createServer((request, response) => {
    const pinned = request.headers['x-instance'];
    const port = proxy.targets[pinned !== undefined ? Number(pinned) : next++ % proxy.targets.length];
    const headers = { ...request.headers, 'x-forwarded-for': String(request.headers['x-client-address'] ?? '127.0.0.1') };
    const upstream = http.request({ host: '127.0.0.1', port, method: request.method, path: request.url, headers, agent }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    });
    request.pipe(upstream);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      proxy.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      proxy.close = () =>
        new Promise((done) => {
          agent.destroy();
          server.closeAllConnections();
          server.close(() => done());
        });
      resolve(proxy);
    }),
  );
}

// Run alone (`node --import tsx scripts/round-robin-proxy.ts PORT...`), it prints its address and serves
// until it is stopped: a benchmark keeps the proxy's work out of the load generator's process.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const proxy = await startRoundRobinProxy(process.argv.slice(2).map(Number));
  process.stdout.write(`${proxy.url}\n`);
  process.on('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
}
