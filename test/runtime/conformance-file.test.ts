import { join } from "node:path";
import { FileStore } from "../../src/runtime/file-store.js";
import { storeConformance } from "./conformance.js";
import { tempDir } from "./helpers.js";

const root = tempDir("planspec-conf-runs-");
storeConformance("FileStore", () => ({ store: (id) => new FileStore(join(root, id), id) }));
