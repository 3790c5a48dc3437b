// The club-night load (scripts/club_bench.py runs it; docs/performance.md, "A club night"): every table's
// scorekeeper and the phones and walls watching, as one Node process on the machine's own cores.
//
//   node scripts/club_load.mjs HOST EVENT_JSON SECONDS OUT_JSON
//
// EVENT_JSON is what club_bench.make_event wrote: each table's game and edit token, and the address the open
// wall screen polls. Each table has three phones on its scoreboard and a scorekeeper saving a hand every 120 to
// 180 s (the first at a random moment of the first 120 s, through the game API with the table's token and an
// Idempotency-Key); two wall screens show the standings. Every phone and wall polls every 2 s after its last
// answer, with the ETag it holds, as the pages do (a 304 while nothing changed), each on a keep-alive connection
// of its own, as a phone has.
//
// The measure starts once every phone and wall has had its first answer (each a whole page made, all at once:
// the room opening its scoreboards, not the night's steady state) and two more polls have gone by; it lasts
// SECONDS (a phone with no first answer within 120 s is counted as failed, and the measure starts without it); it
// prints "measuring" and "measured" as it starts and ends. OUT_JSON gets the time of every answer in the measure by
// kind of request (ms, to the last byte), the failures by kind and reason, and the CPU this process used in the
// measure, in cores. A scorekeeper stops after the game's three hands.
//
// undici (Node.js's own HTTP client, pinned in package.json) rather than locust: at 400 tables locust used
// 0.40 to 0.45 of a core, about 0.6 ms per request, of the two the server shares; this uses under half of that.

import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { Client } from "undici";

const [host, eventPath, seconds, outPath] = process.argv.slice(2);
const made = JSON.parse(readFileSync(eventPath, "utf8"));
const POLL_MS = 2000;
const HAND_EVERY_MS = [120_000, 180_000];
const HANDS_PER_GAME = 3; // club_bench's event: then the table's game is over, and its scorekeeper stops
const FIRST_ANSWERS_MS = 120_000; // a phone with no answer by then is a failure, and the measure starts anyway
// Us go out with the two canastas modern canasta asks for; Them have one (a hand the rules accept: one refused
// would be counted as failed).
const HAND = JSON.stringify({
  sides: [
    { natural_canastas: 1, mixed_canastas: 1, went_out: true, count: 45 },
    { natural_canastas: 1, count: 30 },
  ],
});

const times = {};
const failures = {};
let measuring = false;
let running = true;
let waitingForFirst = 0;
let everyFirst;
const allAnswered = new Promise((resolve) => (everyFirst = resolve));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const uniform = (low, high) => low + Math.random() * (high - low);

function note(name, ms, failure) {
  if (!measuring) return;
  if (failure === undefined) (times[name] ??= []).push(ms);
  else {
    const reasons = (failures[name] ??= {});
    reasons[failure] = (reasons[failure] ?? 0) + 1;
  }
}

// One request, timed to its last byte; `ok` says which statuses are answers, not failures.
async function ask(client, name, options, ok) {
  const started = performance.now();
  try {
    const answer = await client.request(options);
    await answer.body.arrayBuffer();
    note(name, performance.now() - started, ok(answer.statusCode) ? undefined : String(answer.statusCode));
    return answer;
  } catch (error) {
    note(name, 0, String(error.code ?? error.message).slice(0, 80));
    return undefined;
  }
}

async function poller(name, path) {
  const client = new Client(host);
  let tag = 'W/"none"';
  let first = true;
  waitingForFirst += 1;
  await sleep(uniform(0, POLL_MS));
  while (running) {
    const headers = { "accept-encoding": "gzip", "if-none-match": tag };
    const answer = await ask(client, name, { path, method: "GET", headers }, (s) => s === 200 || s === 304);
    if (answer?.statusCode === 200) tag = answer.headers.etag ?? tag;
    if (first && answer !== undefined) {
      first = false;
      if (--waitingForFirst === 0) everyFirst();
    }
    await sleep(POLL_MS);
  }
  await client.close();
}

async function scorekeeper(table) {
  const client = new Client(host);
  const path = `/api/games/${table.game}/hands`;
  await sleep(uniform(0, HAND_EVERY_MS[0]));
  for (let hand = 0; running && hand < HANDS_PER_GAME; hand += 1) {
    const headers = {
      "content-type": "application/json",
      authorization: `Bearer ${table.token}`,
      "accept-encoding": "gzip",
      "idempotency-key": randomUUID(),
    };
    await ask(client, "hand saved", { path, method: "POST", body: HAND, headers }, (s) => s === 201);
    await sleep(uniform(...HAND_EVERY_MS));
  }
  await client.close();
}

const phones = [];
for (const table of made.games) {
  for (let watcher = 0; watcher < 3; watcher += 1) {
    phones.push(poller("table scoreboard poll", `/games/${table.game}/scoreboard/live`));
  }
}
for (let wall = 0; wall < 2; wall += 1) phones.push(poller("wall screen poll", made.wall_poll));
for (const table of made.games) phones.push(scorekeeper(table));

await Promise.race([allAnswered, sleep(FIRST_ANSWERS_MS)]);
if (waitingForFirst > 0) failures["no first answer"] = { [`${waitingForFirst} phones`]: waitingForFirst };
await sleep(2 * POLL_MS);
measuring = true;
console.log("measuring"); // club_bench.py reads the server's CPU at these two lines
const cpuBefore = process.cpuUsage();
const began = performance.now();
await sleep(Number(seconds) * 1000);
measuring = false;
const cpu = process.cpuUsage(cpuBefore);
const wall = (performance.now() - began) / 1000;
console.log("measured");
running = false;
const result = { times, failures, load_cpu: (cpu.user + cpu.system) / 1e6 / wall, users: phones.length };
writeFileSync(outPath, JSON.stringify(result));
process.exit(0); // the phones asleep between polls need not be waited for
