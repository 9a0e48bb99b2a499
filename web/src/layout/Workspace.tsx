// The signed-in screen: header plus tree | preview | KnowAgent.

import { useCallback, useState } from "react";
import type { ReactNode } from "react";
import { Group, Panel, Separator, useDefaultLayout } from "react-resizable-panels";
import type { User } from "../api/types";
import { folderOf, rootURI } from "../api/uri";
import { useMediaQuery } from "../ui/useMediaQuery";
import { AppHeader } from "./AppHeader";
import { PanelTabs } from "./PanelTabs";
import type { PanelName } from "./PanelTabs";
import { ResourceTree } from "../tree/ResourceTree";
import { FilePreview } from "../preview/FilePreview";
import { AgentPanel } from "../agent/AgentPanel";
import { useAgentChat } from "../agent/useAgentChat";

export const NARROW_QUERY = "(max-width: 768px)";

export function Workspace({ user }: { user: User }) {
  const root = rootURI(user.username);
  const narrow = useMediaQuery(NARROW_QUERY);
  const [selected, setSelected] = useState<string | null>(null);
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
  const expanded = useState<Set<string>>(() => new Set());

  const select = useCallback(
    (uri: string | null, opts?: { open?: boolean }) => {
      setSelected(uri);
      setJump(null);
      if (uri) setScope(folderOf(uri));
      if (narrow && opts?.open && uri && !uri.endsWith("/")) setActive("preview");
    },
    [narrow],
  );

  const openPreview = useCallback(
    (uri: string, offset: number) => {
      setSelected(uri);
      setJump((j) => ({ uri, offset, n: (j?.n ?? 0) + 1 }));
      if (narrow) setActive("preview");
    },
    [narrow],
  );

  const tree = <ResourceTree root={root} selected={selected} onSelect={select} expanded={expanded} />;
  const preview = <FilePreview uri={selected} root={root} at={jump && jump.uri === selected ? jump : undefined} />;
  const agent = <AgentPanel scope={scope} root={root} chat={chat} onOpenPreview={openPreview} />;

  return (
    <div className="app">
      <AppHeader user={user} />
      {narrow ? (
        <div className="narrow-body">
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
        </div>
      ) : (
        <WidePanels tree={tree} preview={preview} agent={agent} />
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
