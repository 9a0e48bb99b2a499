// How a component test puts a component in the document: a fresh host and
// React root for each test, and a QueryClient for what reads server state.

import { act } from "react";
import type { ReactNode } from "react";
import { createRoot } from "react-dom/client";
import type { Root } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, beforeEach } from "vitest";

export interface Mount {
  /** the element the component renders into, attached to document.body */
  readonly host: HTMLDivElement;
  readonly root: Root;
  /** render shows node, inside act; async, it also lets effects and promises settle */
  render: (node: ReactNode) => void;
  renderAsync: (node: ReactNode) => Promise<void>;
}

/** mountEach gives every test of the enclosing suite its own host and root, unmounted after it. */
export function mountEach(): Mount {
  let host: HTMLDivElement | null = null;
  let root: Root | null = null;
  beforeEach(() => {
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(() => {
    act(() => root?.unmount());
    host?.remove();
  });
  return {
    get host() {
      return host!;
    },
    get root() {
      return root!;
    },
    render: (node) => {
      act(() => root!.render(node));
    },
    renderAsync: (node) =>
      act(async () => {
        root!.render(node);
      }),
  };
}

/** testClient is a QueryClient that does not retry, so a failing request fails the test at once. */
export function testClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

/** withClient wraps node in a provider of client (a fresh testClient by default). */
export function withClient(node: ReactNode, client: QueryClient = testClient()): ReactNode {
  return <QueryClientProvider client={client}>{node}</QueryClientProvider>;
}
