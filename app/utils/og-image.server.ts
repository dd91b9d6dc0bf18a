import fs from "node:fs";
import { createRequire } from "node:module";
import { Resvg } from "@resvg/resvg-js";
import satori from "satori";

/*
 * Social preview images (og:image) rendered on the server: satori lays the card out as SVG from
 * an element tree, resvg turns it into a PNG. The font ships with the app (@fontsource/inter), so
 * no system font is needed.
 */

const require = createRequire(import.meta.url);
let fonts: Array<{ name: string; data: Buffer; weight: 400 | 700; style: "normal" }> | undefined;
function loadFonts() {
  fonts ??= ([400, 700] as const).map((weight) => ({
    name: "Inter",
    weight,
    style: "normal" as const,
    data: fs.readFileSync(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`)),
  }));
  return fonts;
}

/** A minimal element tree for satori (its JSX-free form). */
export interface OgNode {
  type: string;
  props: { style?: Record<string, string | number>; children?: OgNode | string | Array<OgNode | string> };
}
export const h = (type: string, style: Record<string, string | number>, children?: OgNode["props"]["children"]): OgNode => ({
  type,
  props: { style, children },
});

export async function renderPng(tree: OgNode, size = { width: 1200, height: 630 }): Promise<Buffer> {
  const svg = await satori(tree as Parameters<typeof satori>[0], { ...size, fonts: loadFonts() });
  return new Resvg(svg, { fitTo: { mode: "width", value: size.width }, font: { loadSystemFonts: false } }).render().asPng();
}
