// Regenerates src/schema.ts from the server's OpenAPI document (docs/openapi.json).
// The header carries the document's sha256, so a test can tell when the types are stale:
// after a route changes, run `memwise openapi > docs/openapi.json`, then `npm run generate`.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const here = dirname(fileURLToPath(import.meta.url));
const source = join(here, "..", "..", "..", "docs", "openapi.json");
const raw = readFileSync(source, "utf8");
const sha = createHash("sha256").update(raw).digest("hex");
const ast = await openapiTS(JSON.parse(raw), { defaultNonNullable: false });
const header =
  "// Generated from docs/openapi.json by scripts/generate.mjs (openapi-typescript): do not edit.\n" +
  `// openapi sha256: ${sha}\n\n`;
writeFileSync(join(here, "..", "src", "schema.ts"), header + astToString(ast));
console.log(`src/schema.ts from docs/openapi.json (${sha.slice(0, 12)})`);
