// Starts the test OpenID provider (internal/testsupport/oidcop: the
// zitadel/oidc example server with users and groups from a file) as its own
// process, and writes the knowspace config that signs in through it.

import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { E2E_DIR, freePort } from "./server.mjs";

function binaryPath() {
  return path.resolve(E2E_DIR, process.env.OIDCOP_BIN ?? "../bin/oidcop");
}

/**
 * startProvider runs the provider with users ({subject: {username,
 * password, email, email_verified, groups}}) and one client "web" whose
 * redirects are the server at serverURL, for each provider id in ids. It
 * resolves to { issuer, usersFile, setUsers, stop }.
 */
export async function startProvider({ serverURL, ids, users }) {
  const dir = await mkdtemp(path.join(tmpdir(), "knowspace-oidc-"));
  const usersFile = path.join(dir, "users.json");
  const setUsers = (u) => writeFile(usersFile, JSON.stringify(u));
  await setUsers(users);
  const port = await freePort();
  const redirects = ids.map((id) => `${serverURL}/api/v1/auth/sso/${id}/callback`).join(",");
  const client = `web:web-secret:${redirects}|${serverURL}/`;
  const child = spawn(binaryPath(), ["-addr", `127.0.0.1:${port}`, "-users", usersFile, "-client", client], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const issuer = await new Promise((resolve, reject) => {
    let out = "";
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`oidcop exited (${code}) before listening; build it: go build -o bin/oidcop ./internal/testsupport/oidcop/cmd/oidcop`)));
    child.stdout.on("data", (b) => {
      out += b;
      const m = /issuer (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
  });
  return { issuer, usersFile, setUsers, stop: () => child.kill("SIGTERM") };
}

/**
 * ssoEnv writes a config naming the provider once per entry of providers
 * ({id, name}) and returns the server environment that reads it.
 */
export async function ssoEnv({ serverURL, provider, providers, passwordLogin = true }) {
  const dir = await mkdtemp(path.join(tmpdir(), "knowspace-sso-cfg-"));
  const file = path.join(dir, "config.yaml");
  await writeFile(
    file,
    `public_url: ${serverURL}
auth:
  password_login: ${passwordLogin}
  oidc:
${providers
  .map(
    ({ id, name }) => `    - id: ${id}
      name: ${name}
      issuer: ${provider.issuer}
      client_id: web
      client_secret_env: KB_E2E_OIDC_SECRET
      groups_claim: groups
      groups: {eng: engineering}
`,
  )
  .join("")}`,
  );
  return { KB_CONFIG: file, KB_E2E_OIDC_SECRET: "web-secret", KB_LISTEN: new URL(serverURL).host };
}
