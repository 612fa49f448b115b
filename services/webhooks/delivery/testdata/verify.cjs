// Verifies one delivered webhook with the Standard Webhooks reference
// library. Usage: node verify.cjs <folder holding node_modules>; reads
// {"secret", "headers", "body"} as JSON on standard input; prints
// "verified" and exits 0, or prints why not and exits 1.
const path = require("path");
const { createRequire } = require("module");
const { Webhook } = createRequire(path.join(process.argv[2], "package.json"))("standardwebhooks");

let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const { secret, headers, body } = JSON.parse(input);
  try {
    new Webhook(secret).verify(body, headers);
    console.log("verified");
  } catch (e) {
    console.log("refused: " + e.message);
    process.exit(1);
  }
});
