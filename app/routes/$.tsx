/**
 * Any page path no route claims. Throwing here (rather than matching nothing) lets the root loader
 * run first, so the root's 404 page knows who is signed in: the header offers the dashboard, not Login.
 */
const notFound = () => {
  throw new Response("Not found", { status: 404 });
};

export const loader = notFound;
export const action = notFound;

/** Never shown (the loader always throws); its presence makes this a page route, so the root's 404 page renders. */
export default function NotFound() {
  return null;
}
