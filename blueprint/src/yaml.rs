//! YAML in, typed documents out, every error at its node: one set of parser options (YAML 1.2
//! booleans, duplicate keys refused, budgets against alias bombs) over serde-saphyr, and the
//! line and column of each node by field path (`steps[2].expects`), read from the parser's
//! events only when a file has an error to place.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde_saphyr::granit_parser::{Event, Parser};
use serde_saphyr::{Error, MessageFormatter, UserMessageFormatter};

use crate::error::{LoadError, Position};
use crate::source::Source;

/// Most aliases (`*name`) a blueprint may use; the shipped ones use none.
pub const MAX_ALIASES: usize = 100;
/// Most events aliases may replay in one file: a billion-laughs file stops here.
pub const MAX_REPLAYED_EVENTS: usize = 10_000;
/// Deepest nesting of mappings and sequences.
pub const MAX_DEPTH: usize = 32;

/// The parser options every blueprint is read with.
fn options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_aliases: MAX_ALIASES,
            max_depth: MAX_DEPTH,
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: MAX_REPLAYED_EVENTS,
        },
        duplicate_keys: serde_saphyr::DuplicateKeyPolicy::Error,
        strict_booleans: true,
        with_snippet: false,
    }
}

/// Parses `text` (the file `file`) as `T`; an error names the node's path and position.
pub fn parse_str<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, LoadError> {
    serde_saphyr::from_str_with_options(text, options())
        .map_err(|err| parse_error(file, text, &err))
}

/// A document that does not parse, or has the wrong shape, at the node the parser names.
fn parse_error(file: &str, text: &str, err: &Error) -> LoadError {
    let err = err.without_snippet();
    let message = UserMessageFormatter.format_message(err).into_owned();
    let Some(location) = err.location().filter(|l| l.line() > 0) else {
        return LoadError::at(file, "", message);
    };
    let position = Position {
        line: usize::try_from(location.line()).unwrap_or(usize::MAX),
        column: usize::try_from(location.column()).unwrap_or(usize::MAX),
    };
    let positions = Positions::of(text);
    let (field, position) = match err {
        // Reported at the mapping's last key read (or at the mapping, if empty): the mapping
        // is the offending node.
        Error::SerdeMissingField { .. } => positions.mapping_at(position),
        _ => (positions.path_at(position), position),
    };
    LoadError::at(file, field, message).with_position(position)
}

/// Places every error of `errors` that has no position yet on the node its field names,
/// reading `text`'s positions once, and only if there is such an error.
pub(crate) fn place(text: &str, errors: &mut [LoadError]) {
    let mut positions = None;
    for error in errors.iter_mut().filter(|e| e.position.is_none()) {
        let positions = positions.get_or_insert_with(|| Positions::of(text));
        error.position = positions.find(&error.field);
    }
}

/// Like [`place`], each error in the source its file names.
pub(crate) fn place_in(sources: &[Source], errors: &mut [LoadError]) {
    for source in sources {
        let mut positions = None;
        let unplaced = errors
            .iter_mut()
            .filter(|e| e.position.is_none() && e.file == source.path);
        for error in unplaced {
            let positions = positions.get_or_insert_with(|| Positions::of(&source.text));
            error.position = positions.find(&error.field);
        }
    }
}

/// Collects one file's errors and places them all on their nodes at the end.
pub(crate) struct Errors<'a> {
    file: &'a str,
    text: &'a str,
    found: Vec<LoadError>,
}

impl<'a> Errors<'a> {
    /// No errors yet in `file`, whose text is `text`.
    pub(crate) fn new(file: &'a str, text: &'a str) -> Errors<'a> {
        Errors {
            file,
            text,
            found: Vec::new(),
        }
    }

    /// Records an error at the node `field` names (`steps[2].expects`).
    pub(crate) fn at(&mut self, field: &str, message: impl Into<String>) {
        self.found.push(LoadError::at(self.file, field, message));
    }

    /// Every error found, in order, each at its node's line and column.
    pub(crate) fn into_found(mut self) -> Vec<LoadError> {
        place(self.text, &mut self.found);
        self.found
    }
}

/// Where each node of a document starts, by field path.
#[derive(Debug, Default)]
pub(crate) struct Positions {
    /// Each value node's path and start (the first, were a path written twice).
    nodes: BTreeMap<String, Position>,
    /// Every node and key start, in file order.
    starts: Vec<Start>,
}

/// Where a node or a key starts.
#[derive(Debug)]
struct Start {
    at: Position,
    /// The node's path; a key's is its value's.
    path: String,
    key: bool,
}

/// A container being walked.
enum Frame {
    /// A mapping at `path`; `key` is the key whose value comes next, if read.
    Map { path: String, key: Option<String> },
    /// A sequence at `path`; `next` is the next item's index.
    Seq { path: String, next: usize },
    /// A mapping or sequence used as a key: its insides are not indexed.
    Key { depth: usize },
}

impl Positions {
    /// The positions of `text`'s nodes, as far as it parses.
    pub(crate) fn of(text: &str) -> Positions {
        let mut walk = Walk::default();
        for item in Parser::new_from_str(text) {
            let Ok((event, span)) = item else { break };
            let at = Position {
                line: span.start.line(),
                column: span.start.col() + 1,
            };
            match event {
                Event::Scalar(value, ..) => walk.leaf(at, Some(value.as_ref())),
                Event::Alias(_) => walk.leaf(at, None),
                Event::MappingStart(..) => walk.open(at, true),
                Event::SequenceStart(..) => walk.open(at, false),
                Event::MappingEnd | Event::SequenceEnd => walk.close(),
                _ => {}
            }
        }
        walk.positions
    }

    /// Where the node at `field` starts, or the nearest enclosing node that exists.
    pub(crate) fn find(&self, field: &str) -> Option<Position> {
        let mut path = field;
        loop {
            if let Some(position) = self.nodes.get(path) {
                return Some(*position);
            }
            if path.is_empty() {
                return None;
            }
            path = &path[..path.rfind(['.', '[']).unwrap_or(0)];
        }
    }

    /// The innermost node or key starting at or last before `position`.
    fn start_at(&self, position: Position) -> Option<&Start> {
        let end = self.starts.partition_point(|start| start.at <= position);
        self.starts.get(end.checked_sub(1)?)
    }

    /// The path of the innermost node or key starting at or last before `position`.
    pub(crate) fn path_at(&self, position: Position) -> String {
        self.start_at(position)
            .map(|start| start.path.clone())
            .unwrap_or_default()
    }

    /// The path and start of the mapping whose key (or which, if it has none) starts at or
    /// last before `position`.
    pub(crate) fn mapping_at(&self, position: Position) -> (String, Position) {
        match self.start_at(position) {
            Some(start) if start.key => {
                let parent = &start.path[..start.path.rfind(['.', '[']).unwrap_or(0)];
                (parent.to_owned(), self.find(parent).unwrap_or(position))
            }
            Some(start) => (start.path.clone(), start.at),
            None => (String::new(), position),
        }
    }
}

/// The state of one pass over a document's events.
#[derive(Default)]
struct Walk {
    frames: Vec<Frame>,
    positions: Positions,
}

impl Walk {
    /// A scalar (`Some` text) or an alias at `at`.
    fn leaf(&mut self, at: Position, text: Option<&str>) {
        match self.frames.last_mut() {
            Some(Frame::Key { .. }) => {}
            Some(Frame::Map {
                path,
                key: key @ None,
            }) => {
                let name = text.unwrap_or("*").to_owned();
                let path = join(path, &name);
                *key = Some(name);
                let key = true;
                self.positions.starts.push(Start { at, path, key });
            }
            _ => {
                let path = self.child();
                self.record(at, path);
                self.done();
            }
        }
    }

    /// A mapping (`map`) or a sequence starting at `at`.
    fn open(&mut self, at: Position, map: bool) {
        let frame = match self.frames.last_mut() {
            Some(Frame::Key { depth }) => {
                *depth += 1;
                return;
            }
            Some(Frame::Map {
                key: key @ None, ..
            }) => {
                *key = Some("?".to_owned());
                Frame::Key { depth: 0 }
            }
            _ => {
                let path = self.child();
                self.record(at, path.clone());
                match map {
                    true => Frame::Map { path, key: None },
                    false => Frame::Seq { path, next: 0 },
                }
            }
        };
        self.frames.push(frame);
    }

    /// The end of the innermost mapping or sequence.
    fn close(&mut self) {
        match self.frames.last_mut() {
            Some(Frame::Key { depth }) if *depth > 0 => *depth -= 1,
            Some(Frame::Key { .. }) => {
                self.frames.pop();
            }
            _ => {
                self.frames.pop();
                self.done();
            }
        }
    }

    /// The path of the node that comes next.
    fn child(&self) -> String {
        match self.frames.last() {
            Some(Frame::Map { path, key }) => join(path, key.as_deref().unwrap_or("?")),
            Some(Frame::Seq { path, next }) => format!("{path}[{next}]"),
            Some(Frame::Key { .. }) | None => String::new(),
        }
    }

    fn record(&mut self, at: Position, path: String) {
        self.positions.nodes.entry(path.clone()).or_insert(at);
        let key = false;
        self.positions.starts.push(Start { at, path, key });
    }

    /// A value is complete: its mapping waits for the next key, its sequence counts it.
    fn done(&mut self) {
        match self.frames.last_mut() {
            Some(Frame::Map { key, .. }) => *key = None,
            Some(Frame::Seq { next, .. }) => *next += 1,
            Some(Frame::Key { .. }) | None => {}
        }
    }
}

/// `parent.key`, or `key` at the top.
fn join(parent: &str, key: &str) -> String {
    match parent.is_empty() {
        true => key.to_owned(),
        false => format!("{parent}.{key}"),
    }
}

#[cfg(test)]
#[path = "yaml_tests.rs"]
mod tests;
