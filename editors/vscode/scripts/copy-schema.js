// Copies the repository's schema into the extension (VS Code reads it from ./schema/ in the package).
"use strict";

const fs = require("fs");
const path = require("path");

const source = path.join(__dirname, "..", "..", "..", "schema", "cardz.schema.json");
const target = path.join(__dirname, "..", "schema", "cardz.schema.json");
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.copyFileSync(source, target);
console.log(`schema: ${path.relative(process.cwd(), target)}`);
