// A provider on a loopback port for the admin-model tests: one OpenAI
// endpoint, each call's Authorization header recorded.

import http from "node:http";

/**
 * startProvider serves POST /v1/<endpoint> (e.g. "chat/completions",
 * "embeddings") with answer(body, res), the request's JSON body parsed;
 * anything else is 404. It returns { url (the /v1 base URL), auth, close }.
 */
export async function startProvider(endpoint, answer) {
  const auth = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url.endsWith(`/${endpoint}`)) {
        res.writeHead(404).end();
        return;
      }
      auth.push(req.headers.authorization);
      answer(JSON.parse(body), res);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, auth, close: () => new Promise((r) => server.close(r)) };
}
