//! JSON Schema of the wire protocol, generated with schemars and committed under
//! `protocol/schema/`.

use crate::{ClientMessage, ServerMessage};

/// The schema of every client text frame, pretty-printed.
pub fn client_schema_json() -> String {
    pretty(&schemars::schema_for!(ClientMessage))
}

/// The schema of every server text frame, pretty-printed.
pub fn server_schema_json() -> String {
    pretty(&schemars::schema_for!(ServerMessage))
}

/// The schema of `GET /v1/catalog`'s body, pretty-printed.
pub fn catalog_schema_json() -> String {
    pretty(&schemars::schema_for!(crate::catalog::Catalog))
}

/// The schema of `GET /v1/sessions`'s body, pretty-printed.
pub fn sessions_schema_json() -> String {
    pretty(&schemars::schema_for!(crate::catalog::SessionList))
}

/// The schema of `GET /v1/progress`'s body, pretty-printed.
pub fn progress_schema_json() -> String {
    pretty(&schemars::schema_for!(crate::progress::ProgressReport))
}

fn pretty(schema: &schemars::Schema) -> String {
    // unwrap: a schemars::Schema is a JSON value and always serializes.
    #[allow(clippy::unwrap_used)]
    let mut text = serde_json::to_string_pretty(schema).unwrap();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails when `protocol/schema/*.json` is stale. Run with `VIVA_BLESS=1` to rewrite them.
    #[test]
    fn committed_schema_is_current() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
        let files = [
            ("client.schema.json", client_schema_json()),
            ("server.schema.json", server_schema_json()),
            ("catalog.schema.json", catalog_schema_json()),
            ("sessions.schema.json", sessions_schema_json()),
            ("progress.schema.json", progress_schema_json()),
        ];
        for (name, generated) in files {
            let path = dir.join(name);
            if std::env::var_os("VIVA_BLESS").is_some() {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, &generated).unwrap();
            }
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                committed == generated,
                "{} is stale; regenerate with VIVA_BLESS=1 cargo test -p viva-protocol",
                path.display()
            );
        }
    }
}
