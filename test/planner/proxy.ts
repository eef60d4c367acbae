/**
 * A forwarding proxy on 127.0.0.1 that counts what goes through it: CONNECT tunnels
 * (how undici proxies every request) and absolute-form HTTP requests. `refuse` makes it
 * answer CONNECT with 403, for targets it cannot reach (https:// without TLS here).
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import { type AddressInfo, type Socket, connect } from "node:net";

export interface Proxy {
  url: string;
  /** "CONNECT host:port" or "GET http://..." per request seen. */
  seen: string[];
  close(): Promise<void>;
}

export async function startProxy(opts: { refuse?: boolean } = {}): Promise<Proxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const u = new URL(req.url ?? "");
    const up = httpRequest({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("connect", (req, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    if (opts.refuse) {
      client.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    const [host, port] = String(req.url).split(":");
    const up = connect(Number(port), host!, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    sockets.add(up);
    up.on("error", () => client.destroy());
    client.on("error", () => up.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
