import { createReadableStreamFromReadable } from "@remix-run/node";

import { exportFileName } from "~/domain/own-data";
import { z } from "~/domain/zod";
import { accountExport, startAccountExport } from "~/models/account-export.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/**
 * GET /api/account/export: everything kept about the signed-in account as a zip, streamed while
 * it is made: `account.json` and the report files (decision 240). A plain link on the account
 * page downloads it with the session cookie, so it works without JavaScript.
 */
export const loader = apiRoute(
  {
    method: "GET",
    auth: "any",
    produces: "application/zip",
    response: z.string().meta({
      format: "binary",
      description: "A zip: account.json (profile, orders, purchases, subscriptions, receipts, messages, posts, reports) and reports/…",
    }),
    errors: [429],
    summary: "Download your own data: a zip of account.json and your report files. One at a time per account, 3 an hour.",
  },
  async ({ user }) => {
    const now = new Date();
    const end = await startAccountExport(user.id);
    let zip;
    try {
      zip = await accountExport(user.id, now);
    } catch (error) {
      end();
      throw error;
    }
    // Read to the end, abandoned by the client, or failed: the account may export again.
    for (const event of ["end", "close", "error"]) zip.once(event, end);
    return new Response(createReadableStreamFromReadable(zip), {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="${exportFileName(now)}"`,
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  },
);

export const action = methodNotAllowed;
