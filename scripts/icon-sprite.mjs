import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Writes app/assets/icons.svg: one <symbol> per icon that app/components/ui/icons.tsx names
 * (`spriteIcon("inbox")`), drawn from lucide's own shapes. Pages then reference the hashed, cached
 * file (`<use href="/assets/icons-….svg#inbox">`) instead of repeating each icon's paths in every
 * document (decision 297). Run `node scripts/icon-sprite.mjs` after adding an icon; a unit test
 * fails while the file and the list differ.
 */
const root = path.resolve(import.meta.dirname, "..");
export const SPRITE_FILE = path.join(root, "app/assets/icons.svg");
const ICONS_MODULE = path.join(root, "app/components/ui/icons.tsx");
const LUCIDE_ICONS = path.join(root, "node_modules/lucide-react/dist/esm/icons");

/** The icon names icons.tsx asks for, in order of appearance, without repeats. */
export function spriteIconNames() {
  const source = fs.readFileSync(ICONS_MODULE, "utf8");
  return [...new Set([...source.matchAll(/spriteIcon\("([a-z0-9-]+)"\)/g)].map((m) => m[1]))];
}

const STROKE = ' fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"';
const escape = (value) => String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** Lucide's shapes for a name; an alias (history) re-exports another icon's module. */
async function lucideIcon(name) {
  const file = path.join(LUCIDE_ICONS, `${name}.mjs`);
  if (!fs.existsSync(file)) throw new Error(`lucide-react has no icon "${name}"`);
  const { __iconData: icon } = await import(pathToFileURL(file).href);
  if (icon) return icon;
  const target = /from '\.\/([a-z0-9-]+)\.mjs'/.exec(fs.readFileSync(file, "utf8"))?.[1];
  if (!target) throw new Error(`lucide-react's "${name}" has no shapes`);
  return lucideIcon(target);
}

/** The sprite's text for these lucide icon names. */
export async function buildSprite(names = spriteIconNames()) {
  const symbols = [];
  for (const name of names) {
    const icon = await lucideIcon(name);
    const size = icon.size ?? 24;
    const shapes = icon.node
      .map(([tag, attrs]) => {
        const attributes = Object.entries(attrs)
          .filter(([key]) => key !== "key")
          .map(([key, value]) => ` ${key}="${escape(value)}"`)
          .join("");
        return `<${tag}${attributes}/>`;
      })
      .join("");
    // Lucide's stroke on each symbol (a symbol used from another file inherits nothing from this
    // file's root); `currentColor` is the text colour where the icon is used.
    symbols.push(`<symbol id="${name}" viewBox="0 0 ${size} ${size}"${STROKE}>${shapes}</symbol>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join("\n")}\n</svg>\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  fs.writeFileSync(SPRITE_FILE, await buildSprite());
  console.log(`wrote ${path.relative(root, SPRITE_FILE)}: ${spriteIconNames().length} icons`);
}
