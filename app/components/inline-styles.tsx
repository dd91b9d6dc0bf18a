import { createContext, useContext } from "react";

/**
 * The app's one stylesheet, inlined into the document's <head> in production: on a slow mobile
 * connection a separate stylesheet request held first paint back by a round trip (it is ~10 KB
 * compressed). The server render gets the CSS text from entry.server; in the browser the
 * component reads it back from the element the server sent, so hydration sees the same markup and
 * a client-side re-render (after a hydration error, say) keeps the styles. In development the
 * stylesheet stays a <link> (root.tsx), so Vite can hot-reload it.
 * See docs/decisions/008-first-paint-and-hydration.md.
 */
const InlineStylesContext = createContext<string | null>(null);
export const InlineStylesProvider = InlineStylesContext.Provider;

const ELEMENT_ID = "app-styles";
let fromDocument: string | null = null;
/** How the document in this tab was served: its styles inline, or the cached stylesheet. It stays so across client navigations. */
let documentMode: "inline" | "link" | null = null;

/**
 * The stylesheet for a page: inline on public pages (a first visit paints without a round trip), the
 * hashed, cached file on signed-in pages (`linked`: the HTML stays small, and the sign-in pages
 * prefetch the file, decision 296). A document keeps the way it was served while the app navigates.
 */
export function AppStyles({ linked, href }: { linked: boolean; href: string }) {
  const serverCss = useContext(InlineStylesContext);
  // Development: root.tsx links the stylesheet for Vite's hot reload.
  if (import.meta.env.DEV) return null;
  if (typeof document !== "undefined" && documentMode === null) documentMode = document.getElementById(ELEMENT_ID) ? "inline" : "link";
  const mode = typeof document === "undefined" ? (linked ? "link" : "inline") : documentMode;
  if (mode === "link") return <link rel="stylesheet" href={href} />;
  if (serverCss === null && fromDocument === null && typeof document !== "undefined") {
    fromDocument = document.getElementById(ELEMENT_ID)?.textContent ?? "";
  }
  const css = serverCss ?? fromDocument;
  if (!css) return null;
  return <style id={ELEMENT_ID} dangerouslySetInnerHTML={{ __html: css }} />;
}
