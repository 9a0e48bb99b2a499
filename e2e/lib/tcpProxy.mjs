// A TCP proxy between the browser and the server whose connections a test
// can cut: the page's network fails, the server goes on.

import net from "node:net";

/**
 * startProxy forwards 127.0.0.1:<port> to target ("http://127.0.0.1:N").
 * cut(ms) closes every open connection and refuses new ones for ms.
 */
export async function startProxy(target) {
  const { hostname, port } = new URL(target);
  const open = new Set();
  let downUntil = 0;
  const server = net.createServer((client) => {
    if (Date.now() < downUntil) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(Number(port), hostname);
    const pair = { client, upstream };
    open.add(pair);
    const end = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    /** cut drops the page's connections now and refuses it for ms */
    cut(ms) {
      downUntil = Date.now() + ms;
      for (const { client, upstream } of open) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      open.clear();
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
