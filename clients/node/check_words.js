// The lexicon.v1 API from Node.js with @grpc/grpc-js and @grpc/proto-loader (protos loaded at run time).
//   cd clients && npm ci && node node/check_words.js localhost:50051 pl-scrabble żółw zółw
import path from "node:path";
import { fileURLToPath } from "node:url";

import grpc from "@grpc/grpc-js";
import protoLoader from "@grpc/proto-loader";

const protoDir = process.env.LEXICON_PROTO_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "../../proto");
const definition = protoLoader.loadSync(["lexicon/v1/lexicon.proto", "lexicon/v1/game.proto"], {
  includeDirs: [protoDir], enums: String, defaults: true, oneofs: true,
});
const v1 = grpc.loadPackageDefinition(definition).lexicon.v1;
const [address = "localhost:50051", lexicon = "pl-scrabble", ...words] = process.argv.slice(2);
const credentials = grpc.credentials.createInsecure();
const words_ = new v1.LexiconService(address, credentials);
const game = new v1.GameService(address, credentials);
const deadline = () => ({ deadline: Date.now() + 5000 });
const call = (client, method, request) =>
  new Promise((resolve, reject) =>
    client[method](request, deadline(), (err, reply) => (err ? reject(err) : resolve(reply))));

try {
  const checked = await call(words_, "CheckWords", { lexicon, words });
  for (const r of checked.results) console.log(`${r.word}\t${r.status}`);
  console.log(checked.acceptable ? "acceptable" : "not acceptable");

  const move = await call(game, "ValidateMove", { lexicon, rack: "KOTABCD", play: { position: "8H", word: "KOT" } });
  console.log(`8H KOT: ${move.reasonCode} ${move.total} points, leave ${move.rackLeave}`);

  await call(words_, "CheckWords", { lexicon, words: [""] });
} catch (err) {
  // INVALID_ARGUMENT names the field; the google.rpc.Status with a BadRequest rides in the
  // trailing metadata grpc-status-details-bin.
  const details = err.metadata?.get("grpc-status-details-bin").length ? " (with google.rpc details)" : "";
  console.log(`${grpc.status[err.code]}: ${err.details}${details}`);
}
