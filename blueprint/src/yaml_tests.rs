//! Tests of [`super`]: broken YAML placed on its line and column, YAML 1.2 scalars, the
//! alias-bomb budget, and node positions by field path.

use serde::Deserialize;

use super::*;

#[derive(Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    name: String,
    count: u32,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    inner: Option<Inner>,
    #[serde(default)]
    note: Option<String>,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Inner {
    flag: bool,
}

/// `yaml` is refused at `line:column`, naming `field`, with a message containing `says`.
fn check(yaml: &str, line: usize, column: usize, field: &str, says: &str) {
    let error = parse_str::<Doc>("f.yaml", yaml).expect_err(yaml);
    let shown = error.to_string();
    assert_eq!(
        error.position,
        Some(Position { line, column }),
        "{yaml:?}: {shown}"
    );
    assert_eq!(error.field, field, "{yaml:?}: {shown}");
    assert!(error.message.contains(says), "{yaml:?}: {shown}");
    assert!(
        shown.starts_with(&format!("f.yaml:{line}:{column}: ")),
        "{shown}"
    );
}

#[test]
fn broken_yaml_is_placed_on_its_line_and_column() {
    let cases = [
        // An unknown field, at its key.
        (
            "name: a\ncount: 1\ncolour: red\n",
            3,
            1,
            "colour",
            "unknown field `colour`",
        ),
        (
            "name: a\ncount: 1\ninner:\n  flag: true\n  flga: false\n",
            5,
            3,
            "inner.flga",
            "unknown field `flga`",
        ),
        // A wrong type, at the value.
        ("name: a\ncount: many\n", 2, 8, "count", "invalid"),
        (
            "name: a\ncount: 1\ntags: {a: 1}\n",
            3,
            7,
            "tags",
            "expected sequence",
        ),
        (
            "name: a\ncount: 1\ninner: {flag: 3}\n",
            3,
            15,
            "inner.flag",
            "invalid",
        ),
        // A missing field, where its mapping starts.
        ("name: a\n", 1, 1, "", "missing field `count`"),
        (
            "name: a\ncount: 1\ninner:\n  other: 1\n",
            4,
            3,
            "inner.other",
            "unknown field `other`",
        ),
        (
            "name: a\ncount: 1\ninner: {}\n",
            3,
            8,
            "inner",
            "missing field `flag`",
        ),
        // A duplicate key, at the second.
        ("name: a\ncount: 1\nname: b\n", 3, 1, "name", "duplicate"),
        // Bad indentation.
        (
            "name: a\ncount: 1\ntags:\n  - x\n - y\n",
            5,
            2,
            "tags[0]",
            "did not find expected key",
        ),
        ("name: a\n  count: 1\n", 2, 8, "name", ""),
    ];
    for (yaml, line, column, field, says) in cases {
        check(yaml, line, column, field, says);
    }
}

#[test]
fn scalars_read_as_yaml_1_2() {
    let yaml =
        "name: 1.0\ncount: 7\ntags: [yes, no, on, '~', 012]\ninner: {flag: false}\nnote: ~\n";
    let doc: Doc = parse_str("f.yaml", yaml).expect("parses");
    assert_eq!(doc.name, "1.0", "a number read into a string is its text");
    assert_eq!((doc.count, doc.inner.map(|i| i.flag)), (7, Some(false)));
    let quoted: Doc = parse_str("f.yaml", "name: a\ncount: '7'\n").expect("parses");
    assert_eq!(
        quoted.count, 7,
        "the target type decides: a quoted number reads as one"
    );
    assert_eq!(doc.tags, ["yes", "no", "on", "~", "012"]);
    assert_eq!(doc.note, None, "`~` is null");
    let cases = [
        ("name: a\ncount: 1\ninner: {flag: yes}\n", "invalid boolean"),
        ("name: ~\ncount: 1\n", "null"),
    ];
    for (yaml, says) in cases {
        let error = parse_str::<Doc>("f.yaml", yaml).expect_err(yaml);
        assert!(error.message.contains(says), "{yaml:?}: {error}");
    }
}

/// Any nesting of lists of strings.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Tree {
    Leaf(#[allow(dead_code)] String),
    Node(#[allow(dead_code)] Vec<Tree>),
}

#[test]
fn an_alias_bomb_is_refused() {
    let mut bomb = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (name, previous) in ["b", "c", "d", "e", "f", "g", "h", "i"].iter().zip('a'..) {
        let aliases = vec![format!("*{previous}"); 9].join(", ");
        bomb.push_str(&format!("{name}: &{name} [{aliases}]\n"));
    }
    let error = parse_str::<BTreeMap<String, Tree>>("bomb.yaml", &bomb).expect_err("refused");
    assert!(
        error.message.contains("too large or too complex"),
        "{error}"
    );
}

#[test]
fn nodes_are_found_by_their_field_path() {
    let text = "\
a: 1
b:
  c: [x, {d: y}]
  e:
    - f: 2
      g: 3
    - h
'k': ~
";
    let positions = Positions::of(text);
    let cases = [
        ("", Some((1, 1))),
        ("a", Some((1, 4))),
        ("b", Some((3, 3))),
        ("b.c", Some((3, 6))),
        ("b.c[0]", Some((3, 7))),
        ("b.c[1].d", Some((3, 14))),
        ("b.e[0]", Some((5, 7))),
        ("b.e[0].g", Some((6, 10))),
        ("b.e[1]", Some((7, 7))),
        ("k", Some((8, 6))),
        // Not written: the nearest enclosing node.
        ("b.e[0].z", Some((5, 7))),
        ("b.e[5].f", Some((5, 5))),
        ("z", Some((1, 1))),
    ];
    for (field, expected) in cases {
        let expected = expected.map(|(line, column)| Position { line, column });
        assert_eq!(positions.find(field), expected, "{field}");
    }
}

#[test]
fn errors_without_a_position_are_placed_by_their_field() {
    let text = "steps:\n  - element: X\n    expects: [a, b]\n";
    let mut errors = vec![
        LoadError::at("s.yaml", "steps[0].expects[1]", "no such fact"),
        LoadError::at("s.yaml", "title", "must not be empty"),
        LoadError::at("s.yaml", "steps", "placed already")
            .with_position(Position { line: 9, column: 9 }),
    ];
    place(text, &mut errors);
    let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "s.yaml:3:18: steps[0].expects[1]: no such fact",
            "s.yaml:1:1: title: must not be empty",
            "s.yaml:9:9: steps: placed already",
        ]
    );
}
