// Preloaded into a server under test (NODE_OPTIONS=--import): every statement the embedded database
// (PGlite) runs is appended, as one JSON string a line, to the file named by SQL_LOG. It is read off
// the wire messages PGlite is given: a simple query's text, and for each Bind the text of the statement
// it runs (a prepared statement's is remembered from its Parse, which itself runs nothing), inside
// transactions too. The server's build imports the same PGlite module, so its instances run this method.
import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";

const file = process.env.SQL_LOG;
if (file) {
  const decoder = new TextDecoder();
  /** Texts of named statements, and of the last unnamed one, as Parse gave them. */
  const named = new Map();
  let unnamed = "";
  const append = (text) => fs.appendFileSync(file, `${JSON.stringify(String(text))}\n`);
  /** The NUL-terminated strings at the start of a message's body. */
  const strings = (body, count) => {
    const out = [];
    let start = 0;
    while (out.length < count) {
      const end = body.indexOf(0, start);
      out.push(decoder.decode(body.subarray(start, end)));
      start = end + 1;
    }
    return out;
  };
  const log = (bytes) => {
    // The startup packet has no type byte.
    if (bytes[0] === 0) return;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 0; at + 5 <= bytes.length;) {
      const type = String.fromCharCode(bytes[at]);
      const length = view.getInt32(at + 1);
      const body = bytes.subarray(at + 5, at + 1 + length);
      if (type === "Q") append(strings(body, 1)[0]);
      else if (type === "P") {
        const [name, text] = strings(body, 2);
        if (name) named.set(name, text);
        else unnamed = text;
      } else if (type === "B") {
        const [, statement] = strings(body, 2);
        append(statement ? named.get(statement) : unnamed);
      }
      at += 1 + length;
    }
  };
  const original = PGlite.prototype.execProtocolRaw;
  PGlite.prototype.execProtocolRaw = function (message, ...rest) {
    log(message);
    return original.call(this, message, ...rest);
  };
}
