// Starts the real knowspace binary on a free port with a throw-away data dir.
// The binary is built elsewhere (Makefile); this harness never builds.

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
/** E2E_DIR is the e2e/ folder; the default binary path is relative to it. */
export const E2E_DIR = path.resolve(here, "..");

export const ADMIN_USER = "admin";
export const ADMIN_PASSWORD = "e2e-admin-Password-1";

const STARTUP_TIMEOUT_MS = Number(process.env.KNOWSPACE_STARTUP_TIMEOUT_MS ?? 30_000);
const STOP_TIMEOUT_MS = 10_000;

function binaryPath() {
  const bin = process.env.KNOWSPACE_BIN ?? "../bin/knowspace";
  return path.resolve(E2E_DIR, bin);
}

/** freePort is a port nothing listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * startServer boots the binary and waits until GET /healthz answers 200.
 * extraEnv adds or overrides variables (e.g. a fake LLM's address).
 */
export async function startServer(extraEnv = {}) {
  const bin = binaryPath();
  if (!existsSync(bin)) {
    throw new Error(
      `knowspace binary not found at ${bin}; build it first ` +
        "(npm --prefix web run build && go build -tags embedspa,sqlite_fts5 -o bin/knowspace ./cmd/server) or set KNOWSPACE_BIN",
    );
  }
  // A caller that must know the address first (a config naming it) picks it.
  const port = extraEnv.KB_LISTEN ? Number(extraEnv.KB_LISTEN.split(":").pop()) : await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), "knowspace-e2e-"));
  const logPath = path.join(dataDir, "server.log");
  const log = createWriteStream(logPath);
  const env = {
    ...process.env,
    KB_LISTEN: `127.0.0.1:${port}`,
    KB_DATA_DIR: dataDir,
    KB_ADMIN_PASSWORD: ADMIN_PASSWORD,
    KB_JWT_SECRET: randomBytes(32).toString("hex"),
    ...extraEnv,
  };
  const child = spawn(bin, [], { env, cwd: dataDir, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  let exited = null;
  const exitPromise = new Promise((resolve) =>
    child.on("exit", (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    }),
  );

  const baseURL = `http://127.0.0.1:${port}`;
  const readLog = async () => (await readFile(logPath, "utf8").catch(() => "")).slice(-4000);
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (exited) {
      throw new Error(`knowspace exited during startup (${JSON.stringify(exited)}); log:\n${await readLog()}`);
    }
    try {
      const res = await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`knowspace did not answer /healthz within ${STARTUP_TIMEOUT_MS} ms; log:\n${await readLog()}`);
    }
    await sleep(100);
  }

  async function stop() {
    if (!exited) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exitPromise;
      clearTimeout(timer);
    }
    log.end();
    if (process.env.KNOWSPACE_KEEP_DATA) {
      console.log(`# kept data dir ${dataDir}`);
    } else {
      await rm(dataDir, { recursive: true, force: true });
    }
  }

  /** logText is the server's whole log so far (stdout and stderr). */
  const logText = async () => readFile(logPath, "utf8").catch(() => "");
  /** logLines are the log lines that contain text. */
  const logLines = async (text) => (await logText()).split("\n").filter((l) => l.includes(text));
  /**
   * waitForLog polls the log until more than `after` lines contain text and
   * returns those lines; it throws after timeout ms.
   */
  async function waitForLog(text, { after = 0, timeout = 5_000 } = {}) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const lines = await logLines(text);
      if (lines.length > after) return lines;
      if (Date.now() > deadline) {
        throw new Error(`the server log has ${lines.length} line(s) with ${JSON.stringify(text)} after ${timeout} ms, wanted more than ${after}`);
      }
      await sleep(50);
    }
  }

  return { baseURL, dataDir, logPath, readLog, logText, logLines, waitForLog, stop };
}

/**
 * FAKE_LLM_ABORTED is the line a server started with KB_FAKE_LLM=1 logs each
 * time a request to its fake LLM is closed before the answer ended: the proof
 * that Stop or a folder switch reached the provider.
 */
export const FAKE_LLM_ABORTED = "fake llm: the client closed a request before its answer ended";

/** apiLogin signs in through the API and returns the bearer token. */
export async function apiLogin(baseURL, username = ADMIN_USER, password = ADMIN_PASSWORD) {
  const res = await fetch(`${baseURL}/api/v1/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return (await res.json()).token;
}
