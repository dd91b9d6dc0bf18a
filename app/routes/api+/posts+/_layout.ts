import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { createPostSchema, listPostsQuery, postJson } from "~/domain/schemas/calendar";
import { clientIdOf } from "~/models/clients.server";
import { createPost, listPosts, toPostJson } from "~/models/posts.server";
import { apiRoute } from "~/web/api.server";

/*
 * GET /api/posts[?customerId=&from=&to=&status=] — the content calendar by scheduledAt: staff any
 * customer's posts, a customer their own (never drafts). At most 1,000 posts; narrow with from/to.
 * POST /api/posts {customerId, channel, scheduledAt, caption} — staff draft a post.
 */

export const loader = apiRoute(
  {
    method: "GET",
    auth: "any",
    allow: "calendar:own",
    query: listPostsQuery,
    response: statusData(z.object({ posts: postJson.array() })),
    errors: [404],
    summary: "Content calendar posts by scheduledAt (team: any customer; customer: their own, never drafts).",
  },
  async ({ user, query }) => {
    // A client is named by any of its members' ids.
    const customerId = query.customerId ? ((await clientIdOf(query.customerId)) ?? query.customerId) : undefined;
    return { status: "success", data: { posts: (await listPosts(user, { ...query, customerId })).map(toPostJson) } };
  },
);

export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    body: createPostSchema,
    status: 201,
    response: statusData(z.object({ post: postJson })),
    errors: [404],
    summary: "Draft a post on a customer's content calendar (team).",
  },
  async ({ user, body }) => ({ status: "success", data: { post: toPostJson(await createPost(user, body)) } }),
);
