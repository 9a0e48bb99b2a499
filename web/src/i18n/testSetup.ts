import { setupI18n } from "./index";

// Component tests render English, the fallback language.
setupI18n("en");
