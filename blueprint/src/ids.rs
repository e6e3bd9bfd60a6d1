//! The shape of ids blueprints give their entries (facts, units, scenarios).

/// Lower-case letters, digits and single inner dashes.
pub(crate) fn is_kebab(id: &str) -> bool {
    !id.is_empty()
        && !id.starts_with('-')
        && !id.ends_with('-')
        && !id.contains("--")
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_case_ids() {
        let cases = [
            ("a-b", true),
            ("ab1", true),
            ("", false),
            ("-a", false),
            ("a--b", false),
            ("A", false),
        ];
        for (id, kebab) in cases {
            assert_eq!(is_kebab(id), kebab, "{id}");
        }
    }
}
