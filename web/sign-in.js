// Sign-in with an OpenID provider: the authorization code flow with PKCE (S256), for the
// provider the server names at GET /v1/auth/config. The id_token becomes the bearer token;
// nothing of the flow stays in the address bar (history.replaceState).

const PENDING = "viva.oidc";

/** The provider the server names ({issuer, client_id, scopes}), or null. */
export async function providerConfig() {
  try {
    const response = await fetch("/v1/auth/config");
    if (!response.ok) return null;
    return (await response.json()).oidc ?? null;
  } catch {
    return null;
  }
}

/** A short name for the provider, for "Sign in with …". */
export function providerName(config) {
  try { return new URL(config.issuer).host; } catch { return "your institution"; }
}

function base64url(bytes) {
  let text = "";
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function randomString() {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

async function discover(issuer) {
  const response = await fetch(`${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`the sign-in provider answered HTTP ${response.status}`);
  const discovery = await response.json();
  if (discovery.issuer !== issuer) throw new Error("the sign-in provider names another issuer");
  return discovery;
}

function redirectUri() {
  return `${location.origin}/`;
}

/** Leaves for the provider's sign-in page; the flow's secrets wait in sessionStorage. */
export async function startSignIn(config) {
  const discovery = await discover(config.issuer);
  const verifier = randomString();
  const challenge = base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  const pending = { verifier, state: randomString(), nonce: randomString(), issuer: config.issuer };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  const url = new URL(discovery.authorization_endpoint);
  for (const [key, value] of Object.entries({
    response_type: "code", client_id: config.client_id, redirect_uri: redirectUri(),
    scope: config.scopes, state: pending.state, nonce: pending.nonce,
    code_challenge: challenge, code_challenge_method: "S256",
  })) url.searchParams.set(key, value);
  location.assign(url.href);
}

function claimsOf(idToken) {
  const part = idToken.split(".")[1] ?? "";
  const json = atob(part.replaceAll("-", "+").replaceAll("_", "/"));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0))));
}

/**
 * Finishes a sign-in the provider sent back here (`?code=…&state=…`): checks the state,
 * exchanges the code with the verifier, checks the id_token's issuer, audience and nonce,
 * and returns it with its subject. Null when this page load is no such return.
 */
export async function finishSignIn(config) {
  const params = new URLSearchParams(location.search);
  if (!params.has("code") && !params.has("error")) return null;
  history.replaceState(null, "", location.pathname);
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? "null");
  sessionStorage.removeItem(PENDING);
  if (params.has("error")) throw new Error(`sign-in refused: ${params.get("error")}`);
  if (!config || !pending || params.get("state") !== pending.state || pending.issuer !== config.issuer) {
    throw new Error("this sign-in was not started here; sign in again");
  }
  if (params.has("iss") && params.get("iss") !== config.issuer) throw new Error("the sign-in came back from another issuer");
  const discovery = await discover(config.issuer);
  const response = await fetch(discovery.token_endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code", code: params.get("code"), redirect_uri: redirectUri(),
      client_id: config.client_id, code_verifier: pending.verifier,
    }),
  });
  const tokens = await response.json().catch(() => ({}));
  if (!response.ok || !tokens.id_token) throw new Error(tokens.error_description ?? "the sign-in provider gave no token");
  const claims = claimsOf(tokens.id_token);
  const audiences = [claims.aud].flat();
  if (claims.iss !== config.issuer || !audiences.includes(config.client_id) || claims.nonce !== pending.nonce) {
    throw new Error("the sign-in provider's token is not for this sign-in");
  }
  return { token: tokens.id_token, user: claims.sub };
}
