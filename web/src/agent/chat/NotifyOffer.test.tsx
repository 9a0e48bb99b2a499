import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mountEach } from "../../testing/mount";
import { NotifyOffer } from "./NotifyOffer";

function fakeNotification(permission: NotificationPermission, answer: NotificationPermission) {
  const N = {
    permission,
    requestPermission: vi.fn(async () => {
      N.permission = answer;
      return answer;
    }),
  };
  vi.stubGlobal("Notification", N);
  return N;
}

describe("NotifyOffer", () => {
  const page = mountEach();
  afterEach(() => vi.unstubAllGlobals());

  it("asks the browser once and goes away whatever the answer", async () => {
    const N = fakeNotification("default", "granted");
    page.render(<NotifyOffer />);
    const button = page.host.querySelector("button");
    expect(button?.textContent).toContain("Notify me");
    await act(async () => button?.click());
    expect(N.requestPermission).toHaveBeenCalledTimes(1);
    expect(page.host.querySelector("button")).toBeNull();
  });

  it("is not offered when the browser was asked before", () => {
    fakeNotification("denied", "denied");
    page.render(<NotifyOffer />);
    expect(page.host.querySelector("button")).toBeNull();
  });
});
