// The login page offers what the server says: a button per identity
// provider, the password form only when passwords are allowed; and a
// provider's answer in the address is traded once for a session.

import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { clearSession, readToken } from "../api/token";
import i18n from "../i18n";
import { mountEach, withClient } from "../testing/mount";
import { LoginPage } from "./LoginPage";
import { SessionProvider, useSession } from "./session";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

function stubServer(options: unknown, redeem?: (ticket: string) => Response) {
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push(`${init?.method ?? "GET"} ${url}`);
      if (url.endsWith("/auth/sign-in-options")) return json(200, options);
      if (url.endsWith("/auth/sso/redeem") && redeem) return redeem(JSON.parse(String(init?.body)).ticket);
      return json(404, { error: { code: "no_route", message: "no" } });
    }),
  );
  return calls;
}

function Who() {
  const { user } = useSession();
  return user ? <p data-testid="who">{user.username}</p> : <LoginPage />;
}

const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));

describe("login page", () => {
  const page = mountEach();
  afterEach(() => {
    vi.unstubAllGlobals();
    clearSession();
    window.history.replaceState(null, "", "/");
    void i18n.changeLanguage("en");
  });

  it("shows only the providers when passwords are off", async () => {
    window.history.replaceState(null, "", "/notes/?open=a.md");
    stubServer({ password_login: false, providers: [{ id: "corp", name: "Corp SSO" }, { id: "lab", name: "Lab" }] });
    await page.renderAsync(withClient(<SessionProvider><LoginPage /></SessionProvider>));
    await settle();
    const links = [...page.host.querySelectorAll<HTMLAnchorElement>(".login-providers a")];
    expect(links.map((a) => a.textContent?.trim())).toEqual(["Continue with Corp SSO", "Continue with Lab"]);
    expect(new URL(links[0]!.href).pathname).toBe("/api/v1/auth/sso/corp/start");
    expect(new URL(links[0]!.href).searchParams.get("return")).toBe("/notes/?open=a.md");
    expect(page.host.querySelector('input[name="password"]')).toBeNull();
    expect(page.host.querySelector('button[type="submit"]')).toBeNull();
  });

  it("keeps the password form beside the providers, in Chinese too", async () => {
    await i18n.changeLanguage("zh-CN");
    stubServer({ password_login: true, providers: [{ id: "corp", name: "Corp" }] });
    await page.renderAsync(withClient(<SessionProvider><LoginPage /></SessionProvider>));
    await settle();
    expect(page.host.querySelector(".login-providers a")?.textContent?.trim()).toBe("通过 Corp 登录");
    expect(page.host.querySelector('input[name="password"]')).not.toBeNull();
  });

  it("trades the ticket in the address once, then goes where the sign-in started", async () => {
    window.history.replaceState(null, "", "/#sso_ticket=t-1&return=%2Fsettings%2Ftokens");
    const tickets: string[] = [];
    stubServer({ password_login: true, providers: [] }, (ticket) => {
      tickets.push(ticket);
      return json(200, { token: "jwt-1", expires_at: "2999-01-01T00:00:00Z", idle_expires_at: "2999-01-01T00:00:00Z", user: { id: 7, username: "dora", role: "user", disabled: false, created_at: "2026-01-01T00:00:00Z" } });
    });
    await page.renderAsync(withClient(<SessionProvider><Who /></SessionProvider>));
    await settle();
    expect(tickets).toEqual(["t-1"]);
    expect(page.host.querySelector('[data-testid="who"]')?.textContent).toBe("dora");
    expect(readToken()).toBe("jwt-1");
    expect(window.location.pathname).toBe("/settings/tokens");
    expect(window.location.hash).toBe("");
  });

  it("explains a provider's refusal by its code", async () => {
    window.history.replaceState(null, "", "/#sso_error=sso_no_account");
    stubServer({ password_login: true, providers: [{ id: "corp", name: "Corp" }] });
    await page.renderAsync(withClient(<SessionProvider><LoginPage /></SessionProvider>));
    await settle();
    expect(page.host.querySelector('[role="alert"]')?.textContent).toBe("No account belongs to you on this server yet. Ask an administrator to create one.");
    expect(window.location.hash).toBe("");
  });
});
