//! Sign-in with a real OpenID provider (oidc-provider on loopback, `tests/oidc/`): its
//! `id_token`, got through the authorization code flow with PKCE, opens a session; a token
//! the same provider issued to another application is refused.

use crate::harness::oidc::{CLIENT_ID, OTHER_CLIENT, server_and_provider};
use crate::harness::{Auth, Client, connect_or_refusal, http_get, start_exam};

#[tokio::test]
async fn an_id_token_from_the_provider_opens_a_session_and_another_audience_is_refused() {
    let (server, provider, redirect_uri, _dir) = server_and_provider().await;
    let config = http_get(&server, "/v1/auth/config", None).await.json();
    assert_eq!(
        config["oidc"]["issuer"],
        provider.issuer.as_str(),
        "{config}"
    );
    assert_eq!(config["oidc"]["client_id"], CLIENT_ID, "{config}");
    // The page may reach the provider (discovery, token endpoint), and nothing else.
    let page = http_get(&server, "/", None).await;
    let policy = page.header("content-security-policy").unwrap_or_default();
    let connect = format!("connect-src 'self' {};", provider.issuer);
    assert!(policy.contains(&connect), "{policy}");

    let token = provider
        .id_token(CLIENT_ID, &redirect_uri, "oidc-alice")
        .await;
    let mut alice = Client::connect(&server, Auth::Bearer(token.clone())).await;
    let started = start_exam(&mut alice, "oidc").await;
    assert!(!started.session_id.is_empty());
    let sessions = http_get(&server, "/v1/sessions", Some(&token)).await;
    assert_eq!(sessions.status, 200, "{sessions:?}");
    let listed = sessions.json();
    assert_eq!(
        listed["sessions"][0]["session_id"],
        started.session_id.as_str(),
        "{listed}"
    );

    let foreign = provider
        .id_token(OTHER_CLIENT, &redirect_uri, "oidc-alice")
        .await;
    let refused = match connect_or_refusal(&server, Auth::Bearer(foreign.clone())).await {
        Err(refusal) => refusal,
        Ok(_) => panic!("a token for another audience opened a connection"),
    };
    assert_eq!(refused.status, 401, "{refused:?}");
    let challenge = refused.header("www-authenticate").unwrap_or_default();
    assert!(challenge.contains("another audience"), "{refused:?}");
}
