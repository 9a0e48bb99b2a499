// The signed-in screen: header plus tree | preview | KnowAgent.

import { useTranslation } from "react-i18next";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Group, Panel, Separator, useDefaultLayout } from "react-resizable-panels";
import type { User } from "../api/types";
import { SHARED_ROOT, folderOf, isWithin, ownerOf, revealFolders, rootURI, scopeFor } from "../api/uri";
import { useCachedListing } from "../api/listingQueries";
import { queryKeys } from "../api/queryKeys";
import { useMediaQuery } from "../ui/useMediaQuery";
import { AppHeader } from "./AppHeader";
import { PanelTabs } from "./PanelTabs";
import type { PanelName } from "./PanelTabs";
import { ResourceTree } from "../tree/ResourceTree";
import { FilePreview } from "../preview/FilePreview";
import { usePageTitle } from "./pageTitle";
import { AgentPanel } from "../agent/AgentPanel";
import { useAgentChat } from "../agent/chat/useAgentChat";
import { conversationFromSearch, withConversation } from "../conversations/urlState";
import { useConversationsSupport } from "../conversations/useConversationsSupport";

export const NARROW_QUERY = "(max-width: 768px)";

/**
 * openFromURL is the node the address asks for (?open=<uri>): one under the
 * own root, or in someone else's tree (the server answers 404 there unless it
 * was shared with the user, and the preview says so).
 */
export function openFromURL(search: string, root: string): string | null {
  const uri = new URLSearchParams(search).get("open");
  if (!uri || uri === root) return null;
  return isWithin(uri, root) || ownerOf(uri) !== null ? uri : null;
}

const addressOpen = (root: string) => (typeof location === "undefined" ? null : openFromURL(location.search, root));

export function Workspace({ user }: { user: User }) {
  const root = rootURI(user.username);
  const narrow = useMediaQuery(NARROW_QUERY);
  const [selected, setSelected] = useState<string | null>(() => addressOpen(root));
  const [active, setActive] = useState<PanelName>("tree");
  // KnowAgent's folder follows what the user picks in the tree, not files a
  // tool card opens (those may lie in a subfolder; the chat must survive).
  const [scope, setScope] = useState(root);
  const [jump, setJump] = useState<{ uri: string; offset: number; query?: string; n: number } | null>(null);
  // Narrow and wide layouts mount the panels under different parents, so
  // crossing the breakpoint remounts them. State that must survive that lives
  // here: the conversation (and its running stream; only a folder switch
  // resets it, SPEC §8) and the tree's open folders.
  const stored = useConversationsSupport();
  const queryClient = useQueryClient();
  const chat = useAgentChat(scope, stored, () => void queryClient.invalidateQueries({ queryKey: queryKeys.conversations() }));
  // "Shared with me" starts open: it is where a new share shows up.
  const expanded = useState<Set<string>>(() => {
    const at = addressOpen(root);
    return new Set([SHARED_ROOT, ...(at ? revealFolders(at, root) : [])]);
  });
  const setExpanded = expanded[1];
  // The tree loads "Shared with me"; the scope rule reads its entries from that cache.
  const sharedListing = useCachedListing(SHARED_ROOT);
  const sharedItems = sharedListing.data?.items;
  const sharedEntries = useMemo(() => (sharedItems ?? []).map((n) => n.uri), [sharedItems]);
  // Opening a file from anywhere (tool card, search hit, summary badge, the
  // address) opens its folders so the tree shows it selected.
  const reveal = useCallback(
    (uri: string) => {
      const missing = revealFolders(uri, root);
      setExpanded((s) => (missing.every((f) => s.has(f)) ? s : new Set([...s, ...missing])));
    },
    [root, setExpanded],
  );
  // A stored conversation opens in its own folder; the chat and the tree
  // follow it there (a selection in that folder stays). Restoring from the
  // address keeps the selection the address holds.
  const chatOpen = chat.open;
  const openConversation = useCallback(
    async (id: number, keepSelection = false) => {
      const conv = await chatOpen(id);
      if (!conv) return;
      setScope(conv.scope);
      if (keepSelection) return;
      setSelected((cur) => (cur !== null && folderOf(cur) === conv.scope ? cur : conv.scope));
      reveal(conv.scope);
    },
    [chatOpen, reveal],
  );
  // The address names the open stored conversation (?c=): a reload opens it
  // again, back/forward move between conversations.
  const startConversation = useRef(typeof location === "undefined" ? null : conversationFromSearch(location.search));
  const restoring = useRef(false);
  useEffect(() => {
    if (!stored || startConversation.current === null) return;
    const id = startConversation.current;
    startConversation.current = null;
    restoring.current = true;
    void openConversation(id, true)
      .catch(() => history.replaceState(history.state, "", withConversation(location.href, null)))
      .finally(() => (restoring.current = false));
  }, [stored, openConversation]);
  useEffect(() => {
    if (!stored || restoring.current || startConversation.current !== null) return;
    const inURL = conversationFromSearch(location.search);
    if (inURL === chat.storedId) return;
    const next = withConversation(location.href, chat.storedId);
    if (chat.storedId === null) history.replaceState(history.state, "", next);
    else history.pushState(history.state, "", next);
  }, [stored, chat.storedId]);
  const chatReset = chat.reset;
  const storedNow = useRef(chat.storedId);
  storedNow.current = chat.storedId;
  useEffect(() => {
    if (!stored) return;
    const onPop = () => {
      const id = conversationFromSearch(location.search);
      if (id === storedNow.current) return;
      if (id === null) chatReset();
      else void openConversation(id).catch(() => chatReset());
    };
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, [stored, chatReset, openConversation]);
  const openFromList = useCallback((id: number) => openConversation(id), [openConversation]);
  usePageTitle(selected, root);
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
      const nextScope = uri ? scopeFor(uri, root, sharedEntries) : null;
      if (nextScope) setScope(nextScope);
      if (uri && opts?.reveal) reveal(uri);
      if (narrow && opts?.open && uri && !uri.endsWith("/")) setActive("preview");
    },
    [narrow, reveal, root, sharedEntries],
  );

  const openPreview = useCallback(
    (uri: string, offset: number, query?: string) => {
      setSelected(uri);
      reveal(uri);
      setJump((j) => ({ uri, offset, query, n: (j?.n ?? 0) + 1 }));
      if (narrow) setActive("preview");
    },
    [narrow, reveal],
  );
  const showTree = useCallback(() => setActive("tree"), []);

  const tree = (
    <ResourceTree
      root={root}
      username={user.username}
      selected={selected}
      onSelect={select}
      expanded={expanded}
      onOpenHit={openPreview}
      onSummon={narrow ? showTree : undefined}
    />
  );
  const preview = (
    <FilePreview
      uri={selected}
      root={root}
      at={jump && jump.uri === selected ? jump : undefined}
      onOpen={(uri) => select(uri, { open: true, reveal: true })}
    />
  );
  const agent = (
    <AgentPanel scope={scope} root={root} chat={chat} stored={stored} onOpenConversation={openFromList} onOpenPreview={openPreview} />
  );

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
  const { t } = useTranslation("layout");
  const layout = useDefaultLayout({ id: "knowspace-main", storage: localStorage });
  return (
    <Group
      orientation="horizontal"
      className="panels"
      defaultLayout={layout.defaultLayout}
      onLayoutChanged={layout.onLayoutChanged}
    >
      <Panel id="tree" defaultSize="24%" minSize="12%" className="panel">
        <section className="panel-body" aria-label={t("files")}>
          {props.tree}
        </section>
      </Panel>
      <Separator className="separator" aria-label={t("resizeFilesPreview")} />
      <Panel id="preview" defaultSize="46%" minSize="20%" className="panel">
        <section className="panel-body" aria-label={t("preview")}>
          {props.preview}
        </section>
      </Panel>
      <Separator className="separator" aria-label={t("resizePreviewAgent")} />
      <Panel id="agent" defaultSize="30%" minSize="15%" className="panel">
        <section className="panel-body" aria-label={t("agent")}>
          {props.agent}
        </section>
      </Panel>
    </Group>
  );
}
