//! Sign-in with a real OpenID provider in a real browser: Chromium opens the web client,
//! clicks "Sign in with …", logs in on the provider's own (development) login page, comes
//! back signed in with nothing of the flow left in the address bar, and starts an exam.

use crate::harness::browser::Driver;
use crate::harness::oidc::server_and_provider;

#[tokio::test(flavor = "multi_thread")]
async fn a_candidate_signs_in_at_the_provider_and_starts_an_exam() {
    let _machine = crate::MACHINE.lock().await;
    let (server, provider, redirect_uri, _config) = server_and_provider().await;
    assert_eq!(redirect_uri, crate::page(&server));
    let driver = Driver::start().await;
    let browser = driver.browser(None).await;
    browser.open(&crate::page(&server)).await;
    let label = browser
        .text_containing("#oidc-sign-in", "Sign in with")
        .await;
    let host = provider.issuer.trim_start_matches("http://");
    assert!(label.contains(host), "{label}");
    browser.screenshot("oidc-sign-in").await;
    browser.click("#oidc-sign-in").await;
    // The provider's page, on its own origin.
    browser.find_now("input[name=login]").await;
    browser.type_into("input[name=login]", "oidc-carol").await;
    browser.type_into("input[name=password]", "any").await;
    browser.screenshot("oidc-provider-login").await;
    browser.click("button[type=submit]").await;
    browser.text_containing("#who", "oidc-carol").await;
    browser
        .text_when("#sessions", |text| !text.contains("Loading"))
        .await;
    let address = browser.run("return location.href;", vec![]).await;
    let address = address.as_str().unwrap_or_default();
    assert!(
        !address.contains("code=") && !address.contains("state="),
        "the flow stays in the address bar: {address}"
    );
    let stored = browser
        .run("return sessionStorage.getItem('viva.token');", vec![])
        .await;
    assert!(
        stored.as_str().is_some_and(|t| t.split('.').count() == 3),
        "{stored}"
    );
    crate::start_text_exam(&browser).await;
    browser.screenshot("oidc-exam").await;
    // The provider's development login page asks for a web font and its favicon, which
    // this offline machine lacks; any other console error is the client's.
    let errors = browser.console_errors().await;
    let ours: Vec<&String> = errors
        .iter()
        .filter(|e| !e.contains("fonts.googleapis.com") && !e.starts_with(&provider.issuer))
        .collect();
    assert!(ours.is_empty(), "console errors {ours:?}");
    browser.close().await;
}
