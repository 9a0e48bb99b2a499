import { useTranslation } from "react-i18next";
import { Fragment } from "react";
import { TOOLBAR_ACTIONS, tooltipOf } from "./treeActions";
import type { TreeActionHost, TreeSelection } from "./treeActions";

/** TreeToolbar shows the tree's actions (treeActions.ts), each enabled for the selection or not. */
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
            className={a.labelled ? "icon-btn labelled" : "icon-btn"}
            title={t(tooltipOf(a, s), { action: t(a.label) })}
            aria-label={t(a.label)}
            disabled={!a.enabled(s)}
            onClick={() => a.run(s, host)}
          >
            <a.icon size={15} className={a.spins && props.refreshing ? "spin" : undefined} aria-hidden />
            {a.labelled && <span>{t(a.label)}</span>}
          </button>
        </Fragment>
      ))}
    </div>
  );
}
