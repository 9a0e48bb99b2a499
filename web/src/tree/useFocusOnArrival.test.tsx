import { act } from "react";
import { createRoot } from "react-dom/client";
import { useRef } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { useFocusOnArrival } from "./useFocusOnArrival";

function Tree({ arrived = true }: { arrived?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useFocusOnArrival(ref, arrived);
  return <div ref={ref} role="tree" tabIndex={0} />;
}

describe("useFocusOnArrival", () => {
  const host = document.createElement("div");
  document.body.append(host);
  afterEach(() => act(() => root?.unmount()));
  let root: ReturnType<typeof createRoot> | undefined;

  it("focuses the tree when nothing has focus", () => {
    (document.activeElement as HTMLElement | null)?.blur();
    root = createRoot(host);
    act(() => root!.render(<Tree />));
    expect(document.activeElement?.getAttribute("role")).toBe("tree");
  });

  it("leaves a page loaded with a kept session to the browser", () => {
    (document.activeElement as HTMLElement | null)?.blur();
    root = createRoot(host);
    act(() => root!.render(<Tree arrived={false} />));
    expect(document.activeElement).toBe(document.body);
  });

  it("leaves focus where another control holds it", () => {
    const input = document.createElement("input");
    document.body.append(input);
    input.focus();
    root = createRoot(host);
    act(() => root!.render(<Tree />));
    expect(document.activeElement).toBe(input);
    input.remove();
  });
});
