// The tree's keys (WAI-ARIA tree view): arrows, Home/End and type-ahead move
// the selection (treeKeys.ts), with Shift they extend it (multiSelect.ts) and
// Space toggles the current row in it; Enter opens, "/" goes to the search
// box, the ContextMenu key and Shift+F10 open the rows' menu, and the keys of
// the tree's actions (F2 renames, Delete deletes) run them.

import { useRef } from "react";
import type { KeyboardEvent, RefObject } from "react";
import type { TreeRow } from "./flatten";
import { actionForKey } from "./treeActions";
import type { TreeActionHost, TreeSelection } from "./treeActions";
import { clickPick, extendPick } from "./multiSelect";
import type { Picked } from "./multiSelect";
import { TYPE_AHEAD_MS, isTypeAheadKey, treeKeyAction, typeAheadMatch } from "./treeKeys";
import type { NodeRow } from "./treeKeys";

/** the keys that, with Shift, extend the selection to the row they move to */
const EXTENDS = new Set(["ArrowDown", "ArrowUp", "Home", "End"]);

export function useTreeKeyboard(tree: {
  rows: readonly TreeRow[];
  selection: TreeSelection;
  host: TreeActionHost;
  /** select a row and scroll it into view */
  go: (uri: string) => void;
  toggle: (uri: string, open?: boolean) => void;
  activate: (row: TreeRow) => void;
  searchInput: RefObject<HTMLInputElement | null>;
  /** the selection's rows, and how it changes */
  picked: Picked;
  setPicked: (p: Picked) => void;
  /** open the rows' context menu on the current row */
  openMenu: () => void;
}) {
  const typed = useRef({ prefix: "", at: 0 });
  return function onKeyDown(e: KeyboardEvent) {
    const { rows, selection, host } = tree;
    const selected = selection.uri;
    const nodeRows = rows.filter((r): r is NodeRow => r.type === "node");
    const cur = nodeRows.find((r) => r.node.uri === selected);
    if (e.key === "/" && !e.ctrlKey && !e.altKey && !e.metaKey) {
      tree.searchInput.current?.focus();
      e.preventDefault();
      return;
    }
    const go = (uri: string | null) => uri && tree.go(uri);
    if (e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey)) {
      tree.openMenu();
      e.preventDefault();
      return;
    }
    if (e.key === " " && !e.altKey && cur) {
      tree.setPicked(clickPick(nodeRows, tree.picked, cur.node.uri, { toggle: true, range: false }).picked);
      e.preventDefault();
      return;
    }
    if (isTypeAheadKey(e)) {
      const now = e.timeStamp;
      const ta = typed.current;
      ta.prefix = now - ta.at > TYPE_AHEAD_MS ? e.key : ta.prefix + e.key;
      ta.at = now;
      go(typeAheadMatch(nodeRows, selected, ta.prefix));
      e.preventDefault();
      return;
    }
    const move = treeKeyAction(nodeRows, selected, e.key);
    if (move) {
      if (move.kind === "select" && e.shiftKey && EXTENDS.has(e.key)) {
        tree.setPicked(extendPick(nodeRows, tree.picked, move.uri));
        go(move.uri);
      } else if (move.kind === "select") go(move.uri);
      else tree.toggle(move.uri, move.kind === "expand");
      e.preventDefault();
      return;
    }
    const action = actionForKey(e.key);
    if (action) {
      if (cur && action.enabled(selection)) action.run(selection, host);
    } else if (e.key === "Enter") {
      if (cur) tree.activate(cur);
    } else if (!["ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) {
      return;
    }
    // At an end of the tree an arrow does nothing, but it must not scroll the panel.
    e.preventDefault();
  };
}
