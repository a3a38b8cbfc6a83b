import http from "node:http";
import net from "node:net";

/**
 * The HTTP side's load generator for the scan and redeem benches: `post(client, path, headers, body)` sends one
 * JSON POST on client `client`'s own keep-alive connection and resolves with the status and body.
 *
 * By default a lean HTTP/1.1 client (in the spirit of wrk): the request written as one string, the answer read by
 * its Content-Length. On this 2-core machine the load generator shares the cores with the server and the
 * database, and Node's http client cost 3× the CPU per request of the pg client that drives the raw-SQL side
 * (measured: 440–455 µs against 150–220 µs; the lean client 140 µs), which was counted against the server.
 * `BENCH_HTTP_CLIENT=node` uses node:http's client (http.Agent, keep-alive) as before, to compare.
 */
export type PostAnswer = { status: number; body: string };
type Headers = Record<string, string>;

export function httpPoster(port: number, clients: number) {
  return process.env.BENCH_HTTP_CLIENT === "node" ? nodePoster(port, clients) : leanPoster(port);
}

function nodePoster(port: number, clients: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const post = (_client: number, path: string, headers: Headers, body: string) =>
    new Promise<PostAnswer>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          path,
          method: "POST",
          agent,
          headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d) => {
            text += d;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  return { post, close: () => agent.destroy() };
}

type Connection = {
  socket: net.Socket;
  buffered: Buffer;
  settle: { resolve: (answer: PostAnswer) => void; reject: (error: Error) => void } | null;
};

const HEAD_END = Buffer.from("\r\n\r\n");

function leanPoster(port: number) {
  const connections = new Map<number, Connection>();
  const drop = (client: number, connection: Connection, error: Error) => {
    if (connections.get(client) === connection) connections.delete(client);
    connection.socket.destroy();
    const settle = connection.settle;
    connection.settle = null;
    settle?.reject(error);
  };
  const open = (client: number) => {
    const socket = net.connect({ host: "127.0.0.1", port, noDelay: true });
    const connection: Connection = { socket, buffered: Buffer.alloc(0), settle: null };
    socket.on("data", (chunk: Buffer) => {
      const buffer = connection.buffered.length ? Buffer.concat([connection.buffered, chunk]) : chunk;
      const end = buffer.indexOf(HEAD_END);
      if (end === -1) {
        connection.buffered = buffer;
        return;
      }
      const head = buffer.toString("latin1", 0, end);
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      // Every answer of these routes has a length (no compression asked, no stream): anything else is an error.
      if (!length) return drop(client, connection, new Error(`no Content-Length in ${head.split("\r\n", 1)[0]}`));
      const total = end + HEAD_END.length + Number(length[1]);
      if (buffer.length < total) {
        connection.buffered = buffer;
        return;
      }
      connection.buffered = buffer.subarray(total);
      const settle = connection.settle;
      connection.settle = null;
      settle?.resolve({
        status: Number(head.slice(9, 12)),
        body: buffer.toString("utf8", end + HEAD_END.length, total),
      });
    });
    socket.on("error", (error) => drop(client, connection, error));
    socket.on("close", () => drop(client, connection, new Error("connection closed")));
    connections.set(client, connection);
    return connection;
  };
  const post = (client: number, path: string, headers: Headers, body: string) =>
    new Promise<PostAnswer>((resolve, reject) => {
      const connection = connections.get(client) ?? open(client);
      connection.settle = { resolve, reject };
      let head = `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n`;
      for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
      connection.socket.write(`${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  return {
    post,
    close: () => {
      for (const [client, connection] of connections) drop(client, connection, new Error("closed"));
    },
  };
}
