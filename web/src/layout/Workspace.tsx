// The signed-in screen: header plus tree | preview | KnowAgent.

import { useCallback, useEffect, useState } from "react";
import type { ReactNode } from "react";
import { Group, Panel, Separator, useDefaultLayout } from "react-resizable-panels";
import type { User } from "../api/types";
import { folderOf, isWithin, parentURI, rootURI } from "../api/uri";
import { useMediaQuery } from "../ui/useMediaQuery";
import { AppHeader } from "./AppHeader";
import { PanelTabs } from "./PanelTabs";
import type { PanelName } from "./PanelTabs";
import { ResourceTree } from "../tree/ResourceTree";
import { FilePreview } from "../preview/FilePreview";
import { AgentPanel } from "../agent/AgentPanel";
import { useAgentChat } from "../agent/useAgentChat";

export const NARROW_QUERY = "(max-width: 768px)";

/** ancestorsOf lists the folders between root (excluded) and uri (excluded), outermost first. */
export function ancestorsOf(uri: string, root: string): string[] {
  const out: string[] = [];
  for (let p = parentURI(uri); p && p !== root && isWithin(p, root); p = parentURI(p)) out.unshift(p);
  return out;
}

/** openFromURL is the file the address asks for (?open=<uri>), if it lies under root. */
function openFromURL(root: string): string | null {
  if (typeof location === "undefined") return null;
  const uri = new URLSearchParams(location.search).get("open");
  return uri && uri !== root && isWithin(uri, root) ? uri : null;
}

export function Workspace({ user }: { user: User }) {
  const root = rootURI(user.username);
  const narrow = useMediaQuery(NARROW_QUERY);
  const [selected, setSelected] = useState<string | null>(() => openFromURL(root));
  const [active, setActive] = useState<PanelName>("tree");
  // KnowAgent's folder follows what the user picks in the tree, not files a
  // tool card opens (those may lie in a subfolder; the chat must survive).
  const [scope, setScope] = useState(root);
  const [jump, setJump] = useState<{ uri: string; offset: number; n: number } | null>(null);
  // Narrow and wide layouts mount the panels under different parents, so
  // crossing the breakpoint remounts them. State that must survive that lives
  // here: the conversation (and its running stream; only a folder switch
  // resets it, SPEC §8) and the tree's open folders.
  const chat = useAgentChat(scope);
  const expanded = useState<Set<string>>(() => {
    const at = openFromURL(root);
    return new Set(at ? ancestorsOf(at, root) : []);
  });
  const setExpanded = expanded[1];
  // Opening a file from anywhere (tool card, search hit, summary badge, the
  // address) opens its folders so the tree shows it selected.
  const reveal = useCallback(
    (uri: string) => {
      const missing = ancestorsOf(uri, root);
      setExpanded((s) => (missing.every((f) => s.has(f)) ? s : new Set([...s, ...missing])));
    },
    [root, setExpanded],
  );
  // The address names the open file, so a reload or a shared link opens it again.
  useEffect(() => {
    const url = new URL(location.href);
    if (selected) url.searchParams.set("open", selected);
    else url.searchParams.delete("open");
    if (url.href !== location.href) history.replaceState(history.state, "", url);
  }, [selected]);

  const select = useCallback(
    (uri: string | null, opts?: { open?: boolean; reveal?: boolean }) => {
      setSelected(uri);
      setJump(null);
      if (uri) setScope(folderOf(uri));
      if (uri && opts?.reveal) reveal(uri);
      if (narrow && opts?.open && uri && !uri.endsWith("/")) setActive("preview");
    },
    [narrow, reveal],
  );

  const openPreview = useCallback(
    (uri: string, offset: number) => {
      setSelected(uri);
      reveal(uri);
      setJump((j) => ({ uri, offset, n: (j?.n ?? 0) + 1 }));
      if (narrow) setActive("preview");
    },
    [narrow, reveal],
  );

  const tree = <ResourceTree root={root} selected={selected} onSelect={select} expanded={expanded} />;
  const preview = (
    <FilePreview
      uri={selected}
      root={root}
      at={jump && jump.uri === selected ? jump : undefined}
      onOpen={(uri) => select(uri, { open: true, reveal: true })}
    />
  );
  const agent = <AgentPanel scope={scope} root={root} chat={chat} onOpenPreview={openPreview} />;

  return (
    <div className="app">
      <AppHeader user={user} />
      {narrow ? (
        <main className="narrow-body" id="main" tabIndex={-1}>
          {/* All three stay mounted so tree expansion and scroll survive a tab switch. */}
          {(["tree", "preview", "agent"] as const).map((name) => (
            <div
              key={name}
              className="narrow-panel"
              role="tabpanel"
              id={`panel-${name}`}
              aria-labelledby={`tab-${name}`}
              hidden={active !== name}
            >
              {name === "tree" ? tree : name === "preview" ? preview : agent}
            </div>
          ))}
          <PanelTabs active={active} onChange={setActive} />
        </main>
      ) : (
        <main className="wide-body" id="main" tabIndex={-1}>
          <WidePanels tree={tree} preview={preview} agent={agent} />
        </main>
      )}
    </div>
  );
}

function WidePanels(props: { tree: ReactNode; preview: ReactNode; agent: ReactNode }) {
  const layout = useDefaultLayout({ id: "knowspace-main", storage: localStorage });
  return (
    <Group
      orientation="horizontal"
      className="panels"
      defaultLayout={layout.defaultLayout}
      onLayoutChanged={layout.onLayoutChanged}
    >
      <Panel id="tree" defaultSize="24%" minSize="12%" className="panel">
        <section className="panel-body" aria-label="Files">
          {props.tree}
        </section>
      </Panel>
      <Separator className="separator" aria-label="Resize files and preview" />
      <Panel id="preview" defaultSize="46%" minSize="20%" className="panel">
        <section className="panel-body" aria-label="Preview">
          {props.preview}
        </section>
      </Panel>
      <Separator className="separator" aria-label="Resize preview and KnowAgent" />
      <Panel id="agent" defaultSize="30%" minSize="15%" className="panel">
        <section className="panel-body" aria-label="KnowAgent">
          {props.agent}
        </section>
      </Panel>
    </Group>
  );
}
