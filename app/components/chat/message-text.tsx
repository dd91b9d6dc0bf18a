import { Fragment } from "react";

import { LINK_REL, linkify } from "~/domain/linkify";

/**
 * A message's text with its http(s) addresses as links that open in a new tab. Everything is a
 * React text node or an <a> with a parsed href, never HTML, so markup in a message shows as typed.
 */
export function MessageText({ text, own }: { text: string; own: boolean }) {
  return (
    <>
      {linkify(text).map((part, i) =>
        part.kind === "text" ? (
          <Fragment key={i}>{part.text}</Fragment>
        ) : (
          <a
            key={i}
            href={part.href}
            target="_blank"
            rel={LINK_REL}
            className={own ? "font-medium text-white underline underline-offset-2" : "font-medium text-brand-700 underline underline-offset-2"}
          >
            {part.text}
          </a>
        ),
      )}
    </>
  );
}
