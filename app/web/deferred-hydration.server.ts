/**
 * Takes the hydration JavaScript off the first paint's critical path.
 *
 * Remix's <Scripts> renders a `<link rel="modulepreload">` for every module of the page and an
 * inline `<script type="module" async>` importing them. The browser fetches all of them at high
 * priority while it is still parsing the page, and on a slow mobile connection ~140 KB of
 * JavaScript then shares the line with the document (Lighthouse counts them before first paint).
 * The page needs none of it to be read or used: links and forms work without JavaScript.
 *
 * This rewrites that stretch of the server's HTML, which goes out whole (decision 322): the
 * modulepreload links become inert `<link data-modulepreload>` elements, and the module script
 * becomes a classic inline script (same nonce) that, once the page has loaded and painted, adds the
 * modulepreload links and the original module script at the end of <head>/<body>. Hydration then starts as before. React does not compare
 * attributes or inline script text when it hydrates, only element types, so the rewritten elements
 * hydrate as the ones <Scripts> renders; nodes added at the end of <head> and <body> are left alone.
 *
 * If Remix's markup ever changes and the pattern is not found, the HTML goes out unchanged
 * (the page still hydrates, only sooner). Production only: development keeps Remix's own markup.
 * See docs/decisions/008-first-paint-and-hydration.md.
 */
const PRELOAD = /<link rel="modulepreload" href="([^"]+)"((?: crossorigin="[^"]*")?)\/>/g;
const MODULE_SCRIPT = /<script([^>]*?) type="module" async="">([\s\S]*?)<\/script>/;

/**
 * The inline loader: once the page has loaded and its first contentful paint has been reported, it
 * adds the modulepreload links and the module script. A tab opened in the background paints only
 * when shown: 3 s after load it goes ahead anyway. Kept small: it is inlined into every page.
 */
function loader(source: string, hrefs: string[]) {
  const args = JSON.stringify([source, hrefs])
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return (
    "(function(a){var d=document,n=d.currentScript.nonce,s=0,p=0,l=0,go=function(){if(s)return;s=1;" +
    'a[1].forEach(function(h){var k=d.createElement("link");k.rel="modulepreload";k.href=h;d.head.appendChild(k)});' +
    'var m=d.createElement("script");m.type="module";m.nonce=n;m.textContent=a[0];d.body.appendChild(m)},' +
    "t=function(){p&&l&&setTimeout(go)},r=function(){l=1;t();setTimeout(go,3e3)};" +
    'try{new PerformanceObserver(function(e,o){if(e.getEntriesByName("first-contentful-paint").length){o.disconnect();p=1;t()}}).observe({type:"paint",buffered:!0})}catch(e){p=1}' +
    `d.readyState=="complete"?r():addEventListener("load",r)})(${args})`
  );
}

/** The HTML with Remix's modulepreload links and module script rewritten as described above. */
export function deferHydrationMarkup(segment: string): string | null {
  const script = MODULE_SCRIPT.exec(segment);
  if (!script) return null;
  // The links stand right before the scripts: the page above them is left as it is, unsearched.
  const first = segment.indexOf(PRELOAD_START);
  const start = first === -1 || first > script.index ? script.index : first;
  const hrefs: string[] = [];
  const links = segment.slice(start, script.index).replace(PRELOAD, (_link, href: string) => {
    if (!hrefs.includes(href)) hrefs.push(href);
    return `<link data-modulepreload="${href}"/>`;
  });
  const code = loaderFor(script[2]!, hrefs);
  return `${segment.slice(0, start)}${links}<script${script[1]}>${code}</script>${segment.slice(script.index + script[0].length)}`;
}

const PRELOAD_START = '<link rel="modulepreload"';

/**
 * The inline loader for one set of the page's modules. A set is the same for every page of the same
 * routes (the nonce is read at run time, not written in), so each is built once: building it parses
 * and prints the route manifest, about 1 % of a signed-in page's CPU.
 */
const loaders = new Map<string, string>();
function loaderFor(source: string, hrefs: string[]): string {
  const key = `${hrefs.join(" ")}\n${source}`;
  let code = loaders.get(key);
  if (code === undefined) {
    // Bounded: a build has a few hundred route sets at most; an unexpected flood starts over.
    if (loaders.size >= 500) loaders.clear();
    code = loader(compactManifest(source), hrefs);
    loaders.set(key, code);
  }
  return code;
}

const MANIFEST = /window\.__remixManifest = (\{[\s\S]*?\n\});/;

/**
 * The module script's route manifest without the indentation Remix prints it with (a third of the
 * script on a dashboard page). Anything unexpected leaves the source as it is.
 */
export function compactManifest(source: string): string {
  const found = MANIFEST.exec(source);
  if (!found) return source;
  try {
    const compact = JSON.stringify(JSON.parse(found[1]!));
    return `${source.slice(0, found.index)}window.__remixManifest = ${compact};${source.slice(found.index + found[0].length)}`;
  } catch {
    return source;
  }
}
