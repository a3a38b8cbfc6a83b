import http from "node:http";
import https from "node:https";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../env.ts";
import { pushPolicy } from "../modules/messages/channels/push.ts";
import { gatewayPolicy } from "../modules/messages/channels/sms-gateways.ts";
import {
  agentFor,
  checkDestination,
  isIpLiteralHost,
  isPublicAddress,
  OutboundRefused,
  outboundRequest,
  type Resolve,
} from "./outbound.ts";

/** Issue 22 item 1: the outbound door's address classifier, URL check and pinned connections. */
describe("issue 22 item 1: the address classifier", () => {
  it.each([
    "127.0.0.1",
    "127.255.255.254",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.20",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "192.0.0.8",
    "192.0.2.1",
    "198.18.0.1",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "240.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "[::1]",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::ffff:10.0.0.1",
    "::127.0.0.1",
    "64:ff9b::7f00:1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "fec0::1",
    "ff02::1",
    "2001:db8::1",
    "2001:0:4136:e378::1",
    "2002:7f00:1::1",
    "3fff::1",
    "not an address",
    "",
    "1.2.3",
    "256.1.1.1",
  ])("%s is not public", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    "8.8.8.8",
    "142.250.74.106",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.169.0.1",
    "2a00:1450:4007:80e::200a",
    "2606:4700::6810:84e5",
    "::ffff:8.8.8.8",
  ])("%s is public", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it("every spelling of an IPv4 address in a URL is seen as an IP literal", () => {
    const hosts = [
      "https://127.0.0.1/",
      "https://2130706433/",
      "https://0x7f000001/",
      "https://0x7f.0.0.1/",
      "https://0177.0.0.1/",
      "https://017700000001/",
      "https://127.1/",
      "https://127.0.0.1./",
      "https://[::1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://[0:0:0:0:0:ffff:7f00:1]/",
      "https://169.254.169.254/",
    ].map((u) => new URL(u).hostname);
    for (const host of hosts) expect(isIpLiteralHost(host), host).toBe(true);
    expect(new Set(hosts.slice(0, 8))).toEqual(new Set(["127.0.0.1"]));
    expect(isIpLiteralHost("fcm.googleapis.com")).toBe(false);
    expect(isIpLiteralHost("1e100.net")).toBe(false);
  });
});

describe("issue 22 item 1: the push policy", () => {
  const policy = pushPolicy({ PUSH_SERVICE_ORIGINS: ["https://push.example.org:8443"] });
  const refused = (url: string) => {
    const checked = checkDestination(url, policy);
    return checked.ok ? null : checked.reason;
  };

  it("takes the browsers' push services on 443", () => {
    for (const url of [
      "https://fcm.googleapis.com/fcm/send/abc:def",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
      "https://db5p.notify.windows.com/w/?token=abc",
      "https://web.push.apple.com/QGq8",
      "https://api.push.apple.com/3/device/x",
      "https://FCM.googleapis.com:443/fcm/send/x",
      "https://fcm.googleapis.com./fcm/send/x",
    ]) {
      expect(refused(url), url).toBeNull();
    }
  });

  it("takes an operator's self-hosted push service, on its port, trusted", () => {
    const checked = checkDestination("https://push.example.org:8443/p/1", policy);
    expect(checked).toMatchObject({ ok: true, destination: { trusted: true } });
    expect(refused("https://push.example.org/p/1")).toBe("host not allowed");
  });

  it("refuses the rest, IP literals first", () => {
    expect(refused("https://127.0.0.1:8443/x")).toBe("IP address instead of a name");
    expect(refused("https://2130706433/x")).toBe("IP address instead of a name");
    expect(refused("https://[::1]/x")).toBe("IP address instead of a name");
    expect(refused("https://[::ffff:a9fe:a9fe]/x")).toBe("IP address instead of a name");
    expect(refused("https://169.254.169.254/latest/meta-data")).toBe("IP address instead of a name");
    expect(refused("https://localhost/x")).toBe("host not allowed");
    expect(refused("https://evil.example/fcm.googleapis.com")).toBe("host not allowed");
    expect(refused("https://fcm.googleapis.com.evil.example/x")).toBe("host not allowed");
    expect(refused("https://evilnotify.windows.com/x")).toBe("host not allowed");
    expect(refused("https://notify.windows.com/x")).toBe("host not allowed");
    expect(refused("https://fcm.googleapis.com:8443/x")).toBe("port not allowed");
    expect(refused("http://fcm.googleapis.com/x")).toBe("scheme");
    expect(refused("https://user:pw@fcm.googleapis.com/x")).toBe("credentials in the address");
    expect(refused("not a url")).toBe("not a URL");
  });

  it("an SMS gateway: its configured address as written, else its public host on 443", () => {
    const local = gatewayPolicy({ SMS_PROVIDER: "smsgate", SMS_API_URL: "http://192.168.1.20:8080" }, "http://x");
    expect(checkDestination("http://192.168.1.20:8080/message", local)).toMatchObject({ ok: true });
    expect(checkDestination("http://192.168.1.21:8080/message", local)).toMatchObject({ ok: false });
    const brevo = gatewayPolicy({ SMS_PROVIDER: "brevo", SMS_API_URL: undefined }, "https://api.brevo.com");
    expect(checkDestination("https://api.brevo.com/v3/transactionalSMS/send", brevo)).toMatchObject({
      ok: true,
      destination: { trusted: false },
    });
    expect(checkDestination("https://api.brevo.com:8443/v3", brevo)).toMatchObject({ ok: false });
  });
});

/**
 * The rebinding case: an allowed name that resolves to the loopback. A plain TCP listener counts connections; the
 * same request through an agent without the guard reaches it (so the listener would have seen it).
 */
describe("issue 22 item 1: a name resolving to a private address is never connected to", () => {
  let listener: net.Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    listener = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    port = (listener.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });

  const toLoopback: Resolve = async () => [{ address: "127.0.0.1", family: 4 }];
  const mixed: Resolve = async () => [
    { address: "8.8.8.8", family: 4 },
    { address: "127.0.0.1", family: 4 },
  ];

  function get(agent: https.Agent): Promise<string> {
    return new Promise((resolve) => {
      const request = https.get(`https://fcm.googleapis.com:${port}/`, { agent, timeout: 10_000 }, () =>
        resolve("answered"),
      );
      request.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.name));
    });
  }

  it("the guarded agent refuses the name; an unguarded one would have connected", async () => {
    const destination = { url: new URL("https://fcm.googleapis.com/"), trusted: false };
    expect(await get(agentFor(destination, toLoopback) as https.Agent)).toBe("ENOTPUBLIC");
    expect(await get(agentFor(destination, mixed) as https.Agent)).toBe("ENOTPUBLIC");
    expect(connections).toBe(0);
    const unguarded = new https.Agent({ lookup: (_h, _o, cb) => cb(null, [{ address: "127.0.0.1", family: 4 }]) });
    await get(unguarded);
    expect(connections).toBe(1);
    unguarded.destroy();
  });

  it("outboundRequest refuses what the policy refuses before any connection", async () => {
    const policy = pushPolicy({ PUSH_SERVICE_ORIGINS: [] });
    const before = connections;
    for (const url of [
      `https://127.0.0.1:${port}/`,
      `https://localhost:${port}/`,
      `https://2130706433:${port}/`,
      `https://[::ffff:127.0.0.1]:${port}/`,
    ]) {
      await expect(outboundRequest(url, policy, { method: "POST", timeoutMs: 5000 })).rejects.toBeInstanceOf(
        OutboundRefused,
      );
    }
    expect(connections).toBe(before);
  });
});

describe("issue 22 item 1: the operator's settings", () => {
  const env = (origins: string) =>
    parseEnv({
      NODE_ENV: "test",
      SECRET: "x".repeat(40),
      DATA_DIR: "/tmp/fidele-unused",
      PUSH_SERVICE_ORIGINS: origins,
    });

  it("PUSH_SERVICE_ORIGINS takes https origins only, normalised", () => {
    expect(env(" https://Push.Example.org:8443/ , https://127.0.0.1:9443").PUSH_SERVICE_ORIGINS).toEqual([
      "https://push.example.org:8443",
      "https://127.0.0.1:9443",
    ]);
    expect(env("").PUSH_SERVICE_ORIGINS).toEqual([]);
    for (const bad of [
      "http://push.example.org",
      "https://push.example.org/path",
      "https://u:p@push.example.org",
      "x",
    ]) {
      expect(() => env(bad), bad).toThrow(/PUSH_SERVICE_ORIGINS/);
    }
  });

  it("a gateway's redirect is not followed (fetch used to follow it anywhere)", async () => {
    let reached = 0;
    const elsewhere = net.createServer((socket) => {
      reached++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    const target = `http://127.0.0.1:${(elsewhere.address() as net.AddressInfo).port}/`;
    const gateway = http.createServer((_req, res) => res.writeHead(302, { location: target }).end());
    await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(gateway.address() as net.AddressInfo).port}`;
    try {
      const policy = gatewayPolicy({ SMS_PROVIDER: "smsgate", SMS_API_URL: base }, base);
      const answer = await outboundRequest(`${base}/message`, policy, {
        method: "POST",
        body: "{}",
        timeoutMs: 10_000,
      });
      expect(answer.status).toBe(302);
      expect(reached).toBe(0);
      await expect(outboundRequest(target, policy, { method: "GET", timeoutMs: 10_000 })).rejects.toBeInstanceOf(
        OutboundRefused,
      );
    } finally {
      gateway.closeAllConnections();
      await new Promise<void>((resolve) => gateway.close(() => resolve()));
      await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
    }
  });
});

describe("a kept-alive socket the far side dropped", () => {
  it("sends the request again once on a new connection, and never on a fresh one that fails", async () => {
    // Answers the first request of each connection (keep-alive, no timeout hint) and drops the connection on the
    // second, without a word: what a gateway does when its idle timeout and our next request cross.
    let connectionsSeen = 0;
    let requestsSeen = 0;
    let dropEverything = false;
    const server = net.createServer((socket) => {
      connectionsSeen++;
      let served = 0;
      socket.on("data", (chunk) => {
        if (!chunk.toString("latin1").includes("\r\n\r\n")) return;
        requestsSeen++;
        if (dropEverything || served++ > 0) {
          socket.destroy();
          return;
        }
        socket.write(
          "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok",
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const { port: at } = server.address() as net.AddressInfo;
    const url = `http://127.0.0.1:${at}/send`;
    const policy = gatewayPolicy({ SMS_PROVIDER: "smsgate", SMS_API_URL: `http://127.0.0.1:${at}` }, url);
    const post = () => outboundRequest(url, policy, { method: "POST", body: "{}", timeoutMs: 5000 });
    try {
      expect((await post()).body).toBe("ok");
      // The second request goes out on the kept socket, which the server drops: sent again on a new one.
      expect((await post()).body).toBe("ok");
      expect({ connectionsSeen, requestsSeen }).toEqual({ connectionsSeen: 2, requestsSeen: 3 });
      // A new connection that fails is the caller's failure, not tried again.
      dropEverything = true;
      await new Promise((resolve) => setTimeout(resolve, 10));
      const before = requestsSeen;
      await expect(post()).rejects.toThrow(/socket hang up|ECONNRESET/);
      // The kept socket (dropped) and one new connection (dropped too): two tries, no third.
      expect(requestsSeen - before).toBe(2);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
