import type { LoaderFunctionArgs } from "@remix-run/node";

import type { Letter } from "~/domain/grader";
import { isUuid } from "~/domain/ids";
import { findGrade } from "~/models/grades.server";
import { h, renderPng } from "~/utils/og-image.server";

const LETTER_COLOR: Record<Letter, string> = { A: "#15803d", B: "#4d7c0f", C: "#b45309", D: "#c2410c", F: "#b91c1c" };

/** GET /grade/:id/og.png: the grade as a report card image for link previews. A grade never changes, so it caches for a day. */
export async function loader({ params }: LoaderFunctionArgs) {
  const grade = isUuid(params.id) ? await findGrade(params.id!) : null;
  if (!grade) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const rows = grade.areas.map((area) =>
    h("div", { display: "flex", alignItems: "center", fontSize: 28, marginTop: 14 }, [
      h("div", { width: 260, color: "#0f172a" }, area.label),
      h("div", { display: "flex", width: 520, height: 26, backgroundColor: "#e2e8f0", borderRadius: 13 }, [
        h("div", { width: Math.max(8, Math.round(5.2 * area.score)), height: 26, backgroundColor: LETTER_COLOR[area.grade], borderRadius: 13 }),
      ]),
      h("div", { marginLeft: 20, fontWeight: 700, color: "#0f172a" }, `${area.score} ${area.grade}`),
    ]),
  );
  const png = await renderPng(
    h("div", { display: "flex", width: "100%", height: "100%", backgroundColor: "#f8fafc", fontFamily: "Inter", padding: 56 }, [
      h(
        "div",
        {
          display: "flex",
          flexDirection: "column",
          alignItems: "center",
          justifyContent: "center",
          width: 260,
          height: 300,
          backgroundColor: "#1e1b4b",
          borderRadius: 32,
          color: "#ffffff",
        },
        [h("div", { fontSize: 180, fontWeight: 700, lineHeight: 1 }, grade.overall), h("div", { fontSize: 36, marginTop: 8 }, `${grade.score}/100`)],
      ),
      h("div", { display: "flex", flexDirection: "column", marginLeft: 56, flexGrow: 1 }, [
        h("div", { fontSize: 26, fontWeight: 700, color: "#4338ca", letterSpacing: 2 }, "BRANDLIFT SOCIAL MEDIA GRADE"),
        ...rows,
      ]),
    ]),
  );
  return new Response(new Uint8Array(png), {
    headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=86400", "Content-Length": String(png.length) },
  });
}
