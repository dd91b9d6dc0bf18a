// Preloaded into a server under test (NODE_OPTIONS=--import): every statement the embedded database
// (PGlite) is given outside a transaction is appended, as one JSON string a line, to the file named
// by SQL_LOG. The server's build imports the same PGlite module, so its instances run these methods.
import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";

const file = process.env.SQL_LOG;
if (file) {
  for (const method of ["query", "exec"]) {
    const original = PGlite.prototype[method];
    PGlite.prototype[method] = function (text, ...rest) {
      fs.appendFileSync(file, `${JSON.stringify(String(text))}\n`);
      return original.call(this, text, ...rest);
    };
  }
}
