import { useSession } from "./auth/session";
import { LoginPage } from "./auth/LoginPage";
import { Workspace } from "./layout/Workspace";

export function App() {
  const { user } = useSession();
  return user ? <Workspace user={user} /> : <LoginPage />;
}
