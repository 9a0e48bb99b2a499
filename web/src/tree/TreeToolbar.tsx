import { useTranslation } from "react-i18next";
import { Fragment } from "react";
import { HEADER_ACTIONS, TOOLBAR_ACTIONS, tooltipOf } from "./treeActions";
import type { TreeAction, TreeActionHost, TreeSelection } from "./treeActions";

/** TreeToolbar shows the tree's icon actions (treeActions.ts), each enabled for the selection or not. */
export function TreeToolbar(props: { selection: TreeSelection; host: TreeActionHost; refreshing: boolean }) {
  const { t } = useTranslation("tree");
  const { selection: s, host } = props;
  return (
    <div className="toolbar" role="toolbar" aria-label={t("toolbar.label")}>
      {TOOLBAR_ACTIONS.map((a) => (
        <Fragment key={a.id}>
          {a.separated && <span className="toolbar-sep" />}
          <button
            type="button"
            className="icon-btn"
            title={t(tooltipOf(a, s), { action: t(a.label) })}
            aria-label={t(a.label)}
            disabled={!a.enabled(s)}
            onClick={() => a.run(s, host)}
          >
            <a.icon size={15} className={a.spins && props.refreshing ? "spin" : undefined} aria-hidden />
          </button>
        </Fragment>
      ))}
    </div>
  );
}

/** TreeHeaderActions are the actions named in words beside the panel's title (Compile…): to be found at a glance. */
export function TreeHeaderActions(props: { selection: TreeSelection; host: TreeActionHost }) {
  const { selection: s, host } = props;
  return (
    <>
      {HEADER_ACTIONS.map((a) => (
        <HeaderButton key={a.id} action={a} selection={s} host={host} />
      ))}
    </>
  );
}

function HeaderButton({ action: a, selection: s, host }: { action: TreeAction; selection: TreeSelection; host: TreeActionHost }) {
  const { t } = useTranslation("tree");
  return (
    <button
      type="button"
      className="btn small tree-header-action"
      data-action={a.id}
      title={t(tooltipOf(a, s), { action: t(a.label) })}
      disabled={!a.enabled(s)}
      onClick={() => a.run(s, host)}
    >
      <a.icon size={14} aria-hidden /> {t(a.label)}
    </button>
  );
}
