//! The HS256 signing secret: configured, or generated once into `<data_dir>/auth-secret` so
//! `viva token` and `viva serve` agree.

use std::path::Path;

/// The shortest signing secret accepted, in bytes: HS256's own output size. A shorter one
/// can be guessed offline from any one token.
pub const MIN_SECRET_BYTES: usize = 32;
/// Random bytes in a generated secret (written as hex, so twice as many characters).
const NEW_SECRET_BYTES: usize = 32;

/// The signing secret: the configured one, else `<data_dir>/auth-secret`, created by
/// [`new_secret`] on first use so `viva token` and `viva serve` agree. Either must have at
/// least [`MIN_SECRET_BYTES`] bytes.
pub fn resolve_secret(configured: Option<String>, data_dir: &Path) -> anyhow::Result<Vec<u8>> {
    if let Some(secret) = configured.filter(|s| !s.is_empty()) {
        check_secret(&secret, "VIVA_AUTH_SECRET (or [auth] secret)")?;
        return Ok(secret.into_bytes());
    }
    let path = data_dir.join("auth-secret");
    if let Ok(existing) = std::fs::read_to_string(&path) {
        let existing = existing.trim();
        check_secret(existing, &path.display().to_string())?;
        return Ok(existing.as_bytes().to_vec());
    }
    std::fs::create_dir_all(data_dir)?;
    let secret = new_secret()?;
    write_private(&path, &secret)?;
    tracing::warn!(path = %path.display(), "no VIVA_AUTH_SECRET set; generated a signing secret");
    Ok(secret.into_bytes())
}

/// A new signing secret: [`NEW_SECRET_BYTES`] bytes from the operating system's CSPRNG, hex.
pub fn new_secret() -> anyhow::Result<String> {
    let mut bytes = [0u8; NEW_SECRET_BYTES];
    getrandom::fill(&mut bytes)
        .map_err(|err| anyhow::anyhow!("no randomness from the operating system: {err}"))?;
    Ok(bytes.iter().map(|byte| format!("{byte:02x}")).collect())
}

/// Refuses a secret shorter than [`MIN_SECRET_BYTES`], saying where it came from and how to
/// make a good one.
fn check_secret(secret: &str, source: &str) -> anyhow::Result<()> {
    if secret.len() < MIN_SECRET_BYTES {
        anyhow::bail!(
            "the signing secret from {source} is {} bytes; at least {MIN_SECRET_BYTES} are \
             needed. Make one with `viva token --new-secret` (or `openssl rand -hex 32`)",
            secret.len()
        );
    }
    Ok(())
}

fn write_private(path: &Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write;
    #[cfg(unix)]
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    options.mode(0o600);
    options.open(path)?.write_all(contents.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_secret_is_stable_and_long_enough() {
        let dir = tempfile::tempdir().unwrap();
        let first = resolve_secret(None, dir.path()).unwrap();
        assert!(first.len() >= MIN_SECRET_BYTES, "{}", first.len());
        assert_eq!(resolve_secret(None, dir.path()).unwrap(), first);
        let configured = "k".repeat(MIN_SECRET_BYTES);
        assert_eq!(
            resolve_secret(Some(configured.clone()), dir.path()).unwrap(),
            configured.into_bytes()
        );
    }

    #[test]
    fn short_secrets_are_refused_with_the_way_to_make_one() {
        let dir = tempfile::tempdir().unwrap();
        let short = "k".repeat(MIN_SECRET_BYTES - 1);
        let err = resolve_secret(Some(short.clone()), dir.path()).unwrap_err();
        assert!(err.to_string().contains("viva token --new-secret"), "{err}");
        std::fs::write(dir.path().join("auth-secret"), &short).unwrap();
        let err = resolve_secret(None, dir.path()).unwrap_err();
        assert!(err.to_string().contains("auth-secret"), "{err}");
    }

    #[test]
    fn new_secrets_are_hex_and_differ() {
        let first = new_secret().unwrap();
        assert_eq!(first.len(), 2 * NEW_SECRET_BYTES);
        assert!(first.chars().all(|c| c.is_ascii_hexdigit()), "{first}");
        assert_ne!(new_secret().unwrap(), first);
    }
}
