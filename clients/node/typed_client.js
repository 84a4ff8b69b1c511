// The lexicon.v1 API through the generated TypeScript stubs (clients/gen/ts, `make clients`) and
// @grpc/grpc-js: typed messages and enums, the method paths from the service descriptors.
//   node node/typed_client.js localhost:50051 pl-scrabble
import grpc from "@grpc/grpc-js";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";

import { LexiconService, WordStatus } from "../gen/ts/lexicon/v1/lexicon_pb.js";
import { GameService, MoveReason, ReplayEventType } from "../gen/ts/lexicon/v1/game_pb.js";

const [address = "localhost:50051", lexicon = "pl-scrabble"] = process.argv.slice(2);
const client = new grpc.Client(address, grpc.credentials.createInsecure());

function call(method, message) {
  const path = `/${method.parent.typeName}/${method.name}`;
  return new Promise((resolve, reject) =>
    client.makeUnaryRequest(path, (m) => Buffer.from(toBinary(method.input, m)), (b) => fromBinary(method.output, b),
      create(method.input, message), { deadline: Date.now() + 5000 }, (err, reply) => (err ? reject(err) : resolve(reply))));
}

const checked = await call(LexiconService.method.checkWords, { lexicon, words: ["żółw", "zółw"] });
console.log(checked.results.map((r) => `${r.word}=${WordStatus[r.status]}`).join(" "), checked.acceptable);

const moved = await call(GameService.method.validateMove, { lexicon, rack: "KOT?ABC", play: { position: "8H", word: "KOt" } });
console.log(`${MoveReason[moved.reasonCode]} ${moved.total} leave=${moved.rackLeave} row8=${moved.board[7]}`);

const exported = await call(GameService.method.exportGcg, {
  ruleSet: "pl-scrabble",
  players: [{ nickname: "Ala" }, { nickname: "Bob" }],
  moves: [
    { player: 0, move: { case: "play", value: { position: "8H", word: "KOT" } } },
    { player: 1, move: { case: "pass", value: true } },
  ],
});
const replayed = await call(GameService.method.replayGame, { gcg: exported.gcg });
console.log(replayed.ok, replayed.lines.map((l) => ReplayEventType[l.eventType]).join(","), `bag=${replayed.bagCount}`);

const { lexicons } = await call(LexiconService.method.listLexicons, {});
console.log(`wordCount is a ${typeof lexicons[0].wordCount}`);
client.close();
