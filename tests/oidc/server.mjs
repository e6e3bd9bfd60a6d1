// A real OpenID provider on loopback for Viva's sign-in tests: panva's oidc-provider (OpenID
// Certified), with one public client (PKCE, no secret), development interactions (any login
// and password sign in) and an RS256 key generated per run. A second client, `other-app`,
// gets tokens for another audience.
//
// Usage: VIVA_OIDC_DIR=<dir with node_modules> node server.mjs PORT REDIRECT_URI [CLIENT_ID]
// Prints "oidc-provider listening on <issuer>" once it serves.

import { generateKeyPairSync, randomBytes } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

// A test that stops reading our output must not stop the provider.
process.stdout.on("error", () => {});

const [port, redirectUri, clientId = "viva-web"] = process.argv.slice(2);
if (!port || !redirectUri) {
  console.error("usage: node server.mjs PORT REDIRECT_URI [CLIENT_ID]");
  process.exit(2);
}
const modules = process.env.VIVA_OIDC_DIR ?? "/var/tmp/viva-oidc";
const entry = join(modules, "node_modules", "oidc-provider", "lib", "index.js");
const { default: Provider } = await import(pathToFileURL(entry).href);

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const signing = { ...privateKey.export({ format: "jwk" }), kid: "fixture-rs256", alg: "RS256", use: "sig" };

const issuer = `http://127.0.0.1:${port}`;
const provider = new Provider(issuer, {
  // The web client, and another application whose tokens Viva must refuse (wrong audience).
  clients: [clientId, "other-app"].map((client_id) => ({
    client_id,
    token_endpoint_auth_method: "none",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code"],
    response_types: ["code"],
  })),
  pkce: { required: () => true },
  jwks: { keys: [signing] },
  cookies: { keys: [randomBytes(32).toString("hex")] },
  features: { devInteractions: { enabled: true } },
  // The web client exchanges its code from the browser.
  clientBasedCORS: () => true,
  findAccount: async (ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
  // A first-party client: no consent screen, a grant for what it asks.
  loadExistingGrant: async (ctx) => {
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope("openid profile");
    await grant.save();
    return grant;
  },
});
provider.listen(Number(port), "127.0.0.1", () => {
  console.log(`oidc-provider listening on ${issuer}`);
});
