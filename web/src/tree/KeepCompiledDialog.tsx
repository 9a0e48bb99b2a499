// "Keep compiled…" on a folder: the compile form in its save mode, with the
// options (models, CLI profiles, skills) the agent panel also reads.

import { useAgentOptions } from "../api/agentOptions";
import { KeepCompiledForm } from "../agent/compile/KeepCompiledForm";

export function KeepCompiledDialog(props: { folder: string; display: (uri: string) => string; onClose: () => void }) {
  const options = useAgentOptions();
  return <KeepCompiledForm scope={props.folder} display={props.display} options={options.data} onClose={props.onClose} />;
}

/** canKeepCompiled says whether uri is a folder of the own tree outside the generated wiki/. */
export function canKeepCompiled(uri: string | null, ownRoot: string): uri is string {
  return uri !== null && uri.endsWith("/") && uri.startsWith(ownRoot) && !uri.startsWith(`${ownRoot}wiki/`);
}
