// "Keep compiled…" on a folder: the compile form in its save mode, with the
// options (models, CLI profiles, skills) the agent panel also reads.

import { useAgentOptions } from "../api/agentOptions";
import { CompileDialog } from "../agent/compile/CompileDialog";

export function KeepCompiledDialog(props: { folder: string; display: (uri: string) => string; onClose: () => void }) {
  const options = useAgentOptions();
  return <CompileDialog keep scope={props.folder} display={props.display} options={options.data} onClose={props.onClose} onTasks={props.onClose} />;
}

/** canKeepCompiled says whether uri is a folder of the own tree outside the generated wiki/. */
export function canKeepCompiled(uri: string | null, ownRoot: string): uri is string {
  return uri !== null && uri.endsWith("/") && uri.startsWith(ownRoot) && !uri.startsWith(`${ownRoot}wiki/`);
}
