import { Suspense, lazy } from "react";
import { useSession } from "./auth/session";
import { LoginPage } from "./auth/LoginPage";
import { Workspace } from "./layout/Workspace";
import { usePath } from "./layout/route";
import { applyTheme, storedTheme } from "./settings/theme";

// Before the first paint, so a remembered Dark never flashes Light.
applyTheme(storedTheme());

// Pages with their own URL load on first visit: the workspace bundle stays small.
const SettingsPage = lazy(() => import("./settings/SettingsPage"));
const AdminPage = lazy(() => import("./admin/AdminPage"));

const under = (path: string, base: string) => path === base || path.startsWith(base + "/");

export function App() {
  const { user } = useSession();
  const path = usePath();
  if (!user) return <LoginPage />;
  if (under(path, "/settings")) {
    return (
      <Suspense fallback={null}>
        <SettingsPage user={user} />
      </Suspense>
    );
  }
  if (under(path, "/admin")) {
    return (
      <Suspense fallback={null}>
        <AdminPage user={user} />
      </Suspense>
    );
  }
  return <Workspace user={user} />;
}
