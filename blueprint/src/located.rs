//! Errors placed on the line their entry starts: a file's lines are split once, and each
//! entry is looked for after the one before, so placing every entry reads the file once.

use crate::error::LoadError;

/// Collects a file's errors, each placed on the line its entry starts.
pub(crate) struct Errors<'a> {
    file: &'a str,
    /// The file's lines, split once.
    lines: Vec<&'a str>,
    found: Vec<LoadError>,
}

impl<'a> Errors<'a> {
    /// No errors yet in `file`, whose text is `text`.
    pub(crate) fn new(file: &'a str, text: &'a str) -> Errors<'a> {
        Errors {
            file,
            lines: text.lines().collect(),
            found: Vec::new(),
        }
    }

    /// Every error found, in order.
    pub(crate) fn into_found(self) -> Vec<LoadError> {
        self.found
    }

    /// Records an error at `field`, on `line` (1-based; 0 when unknown).
    pub(crate) fn at(&mut self, field: &str, line: usize, message: impl Into<String>) {
        let mut error = LoadError::at(self.file, field, message);
        if line > 0 {
            error = error.with_position(format!("line {line}"));
        }
        self.found.push(error);
    }

    /// Like [`Errors::line_of`] from `*after` (moved past the line found), or from
    /// `fallback` when the entry is not after it.
    pub(crate) fn line_after(&self, needle: &str, after: &mut usize, fallback: usize) -> usize {
        let mut line = self.line_of(needle, *after);
        if line == 0 {
            line = self.line_of(needle, fallback);
        }
        if line > 0 {
            *after = line + 1;
        }
        line
    }

    /// The 1-based line of the first line at or after `from` containing `needle`; 0 if none.
    pub(crate) fn line_of(&self, needle: &str, from: usize) -> usize {
        let start = from.saturating_sub(1);
        self.lines
            .get(start..)
            .and_then(|rest| rest.iter().position(|line| line.contains(needle)))
            .map_or(0, |offset| start + offset + 1)
    }
}

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
    fn entries_are_found_forward_with_a_fallback() {
        let errors = Errors::new("f", "a: 1\nid: x\nid: y\nid: x\n");
        let mut after = 0;
        let found: Vec<usize> = ["id: x", "id: y", "id: x", "id: y"]
            .iter()
            .map(|needle| errors.line_after(needle, &mut after, 1))
            .collect();
        assert_eq!(
            found,
            [2, 3, 4, 3],
            "the last falls back to the first match"
        );
        assert_eq!(errors.line_of("nothing", 1), 0);
    }

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
