//! Head deltas: what changed in a checkpoint's head since the last stored one, as a few edits
//! on its serde data, so a store that keeps a head and a log of edits appends a few hundred
//! bytes per write instead of rewriting the whole head.
//!
//! A head is compared as a `serde_json::Value` (what its `Serialize` produces, the same tree a
//! named MessagePack encoding decodes to). An edit list is a JSON array of edits, each an
//! array `[path, op, ...]`: the path names map fields (strings) and list positions (numbers);
//! `op` 0 sets the value there (`[path, 0, value]`), 1 removes a map field (`[path, 1]`), and
//! 2 drops the first `n` items of a list and appends others (`[path, 2, n, [items]]`, how a
//! sliding window such as the applied event ids moves).
//!
//! [`HeadChain`] is what a writer knows is stored (the head the edits apply to, its version,
//! and how long the log behind it is) and decides when a write sends the whole head again:
//! when the log would outgrow the head or hold [`MAX_EDIT_WRITES`] writes.

use serde_json::{Map, Value};

/// Set the value at the path.
const SET: u64 = 0;
/// Remove the map field at the path.
const REMOVE: u64 = 1;
/// Drop items from the front of the list at the path and append others.
const SHIFT: u64 = 2;
/// The most items a list edit drops from its front (a longer shift is written whole).
const MAX_SHIFT: usize = 16;
/// The most edit writes logged behind one whole head.
pub const MAX_EDIT_WRITES: u32 = 64;
/// How many times the whole head's size its log of edits may reach (so a read costs at
/// most three heads' worth, and a whole write is amortised over several edit writes).
const LOG_TO_WHOLE: usize = 2;

/// Why an edit list does not apply to a head.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("head edit {index} does not apply: {why}")]
pub struct DeltaError {
    /// Which edit.
    pub index: usize,
    /// Why.
    pub why: &'static str,
}

/// The edits that turn `old` into `new` (an empty array when they are equal).
pub fn diff(old: &Value, new: &Value) -> Value {
    let mut edits = Vec::new();
    diff_at(&mut Vec::new(), old, new, &mut edits);
    Value::Array(edits)
}

fn diff_at(path: &mut Vec<Value>, old: &Value, new: &Value, edits: &mut Vec<Value>) {
    if old == new {
        return;
    }
    match (old, new) {
        (Value::Object(old), Value::Object(new)) => diff_maps(path, old, new, edits),
        (Value::Array(old), Value::Array(new)) => diff_lists(path, old, new, edits),
        _ => edits.push(set(path, new)),
    }
}

fn diff_maps(
    path: &mut Vec<Value>,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    edits: &mut Vec<Value>,
) {
    for (key, value) in new {
        path.push(Value::String(key.clone()));
        match old.get(key) {
            Some(was) => diff_at(path, was, value, edits),
            None => edits.push(set(path, value)),
        }
        path.pop();
    }
    for key in old.keys().filter(|key| !new.contains_key(*key)) {
        path.push(Value::String(key.clone()));
        edits.push(Value::Array(vec![
            Value::Array(path.clone()),
            REMOVE.into(),
        ]));
        path.pop();
    }
}

fn diff_lists(path: &mut Vec<Value>, old: &[Value], new: &[Value], edits: &mut Vec<Value>) {
    let changed = old.iter().zip(new).filter(|(a, b)| a != b).count();
    if old.len() == new.len() && changed * 2 <= old.len() {
        for (index, (was, value)) in old.iter().zip(new).enumerate() {
            path.push(index.into());
            diff_at(path, was, value, edits);
            path.pop();
        }
        return;
    }
    let Some(dropped) = shift_of(old, new) else {
        return edits.push(set(path, &Value::Array(new.to_vec())));
    };
    let appended = Value::Array(new[old.len() - dropped..].to_vec());
    let edit = vec![
        Value::Array(path.clone()),
        SHIFT.into(),
        dropped.into(),
        appended,
    ];
    edits.push(Value::Array(edit));
}

/// How many items `old` loses from its front to become a prefix of `new` (the rest of `new`
/// being appended), when that is a shift of at most [`MAX_SHIFT`] that keeps something.
fn shift_of(old: &[Value], new: &[Value]) -> Option<usize> {
    (0..=MAX_SHIFT.min(old.len().saturating_sub(1))).find(|&dropped| {
        let kept = &old[dropped..];
        (dropped > 0 || new.len() > old.len()) && new.starts_with(kept)
    })
}

fn set(path: &[Value], value: &Value) -> Value {
    Value::Array(vec![Value::Array(path.to_vec()), SET.into(), value.clone()])
}

/// Applies `edits` (made by [`diff`]) to `head`, in order.
pub fn apply(head: &mut Value, edits: &Value) -> Result<(), DeltaError> {
    let edits = edits.as_array().ok_or(DeltaError {
        index: 0,
        why: "not a list of edits",
    })?;
    for (index, edit) in edits.iter().enumerate() {
        apply_one(head, edit).map_err(|why| DeltaError { index, why })?;
    }
    Ok(())
}

fn apply_one(head: &mut Value, edit: &Value) -> Result<(), &'static str> {
    let parts = edit.as_array().ok_or("not an edit")?;
    let (Some(Value::Array(path)), Some(op)) =
        (parts.first(), parts.get(1).and_then(Value::as_u64))
    else {
        return Err("no path or operation");
    };
    match op {
        SET => *slot(head, path, true)? = parts.get(2).ok_or("no value")?.clone(),
        REMOVE => remove(head, path)?,
        SHIFT => shift(slot(head, path, false)?, parts.get(2), parts.get(3))?,
        _ => return Err("unknown operation"),
    }
    Ok(())
}

/// The value at `path`; with `create`, a missing last map field is added (as null).
fn slot<'h>(
    head: &'h mut Value,
    path: &[Value],
    create: bool,
) -> Result<&'h mut Value, &'static str> {
    let mut here = head;
    for (depth, step) in path.iter().enumerate() {
        let last = depth + 1 == path.len();
        here = match (here, step) {
            (Value::Object(map), Value::String(key)) => match create && last {
                true => map.entry(key.clone()).or_insert(Value::Null),
                false => map.get_mut(key).ok_or("no such field")?,
            },
            (Value::Array(list), Value::Number(n)) => {
                let index = n.as_u64().and_then(|n| usize::try_from(n).ok());
                index.and_then(|i| list.get_mut(i)).ok_or("no such item")?
            }
            _ => return Err("path does not fit the head"),
        };
    }
    Ok(here)
}

fn remove(head: &mut Value, path: &[Value]) -> Result<(), &'static str> {
    let (Some(Value::String(key)), parent) = (path.last(), path.split_last().map(|(_, p)| p))
    else {
        return Err("removal of a non-field");
    };
    match slot(head, parent.unwrap_or_default(), false)? {
        Value::Object(map) => map.remove(key).map(drop).ok_or("no such field"),
        _ => Err("removal from a non-map"),
    }
}

fn shift(
    list: &mut Value,
    dropped: Option<&Value>,
    appended: Option<&Value>,
) -> Result<(), &'static str> {
    let (Value::Array(list), Some(dropped), Some(Value::Array(appended))) =
        (list, dropped.and_then(Value::as_u64), appended)
    else {
        return Err("shift of a non-list");
    };
    let dropped = usize::try_from(dropped).map_err(|_| "shift too long")?;
    if dropped > list.len() {
        return Err("shift longer than the list");
    }
    list.drain(..dropped);
    list.extend(appended.iter().cloned());
    Ok(())
}

/// How a write stores a head.
#[derive(Debug, Clone, PartialEq)]
pub enum HeadUpdate {
    /// The whole head (and the log of edits behind it is dropped).
    Whole,
    /// Edits appended to the log, valid only on the head stored at `parent_version`.
    Edits {
        /// The version the edits apply to.
        parent_version: u64,
        /// The edits ([`diff`]).
        edits: Value,
    },
}

/// What a writer knows is stored of one session's head.
#[derive(Debug, Clone, Default)]
pub struct HeadChain {
    stored: Option<StoredHead>,
}

#[derive(Debug, Clone)]
struct StoredHead {
    head: Value,
    version: u64,
    whole_bytes: usize,
    edit_writes: u32,
    edit_bytes: usize,
}

impl HeadChain {
    /// How to store `head`: edits on the stored head, unless nothing is known to be stored or
    /// the log would grow past twice the whole head's size or [`MAX_EDIT_WRITES`] writes.
    pub fn update_for(&self, head: &Value) -> HeadUpdate {
        let Some(stored) = &self.stored else {
            return HeadUpdate::Whole;
        };
        let edits = diff(&stored.head, head);
        let logged = stored.edit_bytes + json_len(&edits);
        if stored.edit_writes >= MAX_EDIT_WRITES || logged > LOG_TO_WHOLE * stored.whole_bytes {
            return HeadUpdate::Whole;
        }
        HeadUpdate::Edits {
            parent_version: stored.version,
            edits,
        }
    }

    /// `head`, written at `version` by `update`, is stored.
    pub fn stored(&mut self, head: Value, version: u64, update: &HeadUpdate) {
        let (edit_writes, edit_bytes, whole_bytes) = match (update, self.stored.take()) {
            (HeadUpdate::Edits { edits, .. }, Some(was)) => (
                was.edit_writes + 1,
                was.edit_bytes + json_len(edits),
                was.whole_bytes,
            ),
            _ => (0, 0, json_len(&head)),
        };
        self.stored = Some(StoredHead {
            head,
            version,
            whole_bytes,
            edit_writes,
            edit_bytes,
        });
    }

    /// Nothing is known of what is stored (a write's outcome is unknown, or a new claim):
    /// the next write sends the whole head.
    pub fn forget(&mut self) {
        self.stored = None;
    }
}

fn json_len(value: &Value) -> usize {
    serde_json::to_vec(value).map_or(usize::MAX / 2, |bytes| bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(old: Value, new: Value) -> Value {
        let edits = diff(&old, &new);
        let mut patched = old;
        apply(&mut patched, &edits).unwrap();
        assert_eq!(patched, new);
        edits
    }

    #[test]
    fn equal_heads_need_no_edits() {
        let head = json!({"a": 1, "b": [1, 2], "c": {"d": null}});
        assert_eq!(round_trip(head.clone(), head), json!([]));
    }

    #[test]
    fn changed_fields_are_set_added_and_removed_where_they_are() {
        let old = json!({"seq": 4, "exam": {"cursor": 2, "open": {"text": "Q"}, "gone": 1}});
        let new = json!({"seq": 5, "exam": {"cursor": 3, "open": null, "new": [1]}});
        let edits = round_trip(old, new);
        let paths: Vec<&Value> = edits.as_array().unwrap().iter().map(|e| &e[0]).collect();
        assert!(paths.contains(&&json!(["exam", "gone"])), "{edits}");
        assert!(paths.contains(&&json!(["seq"])), "{edits}");
    }

    #[test]
    fn a_sliding_window_is_a_shift_not_a_rewrite() {
        let old = json!({"ids": ["a", "b", "c", "d"]});
        let new = json!({"ids": ["b", "c", "d", "e"]});
        assert_eq!(round_trip(old, new), json!([[["ids"], 2, 1, ["e"]]]));
        let grown = round_trip(json!([1, 2]), json!([1, 2, 3]));
        assert_eq!(grown, json!([[[], 2, 0, [3]]]));
    }

    #[test]
    fn one_changed_item_of_a_list_is_edited_in_place() {
        let old = json!([{"r": null}, {"r": null}, {"r": null}]);
        let new = json!([{"r": null}, {"r": "yes"}, {"r": null}]);
        assert_eq!(round_trip(old, new), json!([[[1, "r"], 0, "yes"]]));
    }

    #[test]
    fn lists_that_change_wholesale_are_rewritten() {
        round_trip(json!([1, 2, 3]), json!([3, 2, 1, 0, 9]));
        round_trip(json!([1, 2, 3]), json!([]));
        round_trip(json!([]), json!([1]));
        round_trip(json!({"x": [1]}), json!({"x": {"y": 1}}));
    }

    #[test]
    fn edits_that_do_not_fit_the_head_are_refused() {
        let mut head = json!({"a": [1, 2]});
        for edits in [
            json!({}),
            json!([[["b", "c"], 0, 1]]),
            json!([[["a", 5], 0, 1]]),
            json!([[["a"], 2, 3, []]]),
            json!([[["a", 0], 1]]),
            json!([[["a"], 9]]),
            json!([["a", 0, 1]]),
        ] {
            assert!(apply(&mut head, &edits).is_err(), "{edits}");
        }
        assert_eq!(head, json!({"a": [1, 2]}), "nothing half-applied here");
    }

    /// SplitMix64, for the random trees below.
    fn mix(seed: &mut u64) -> u64 {
        *seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn random_tree(seed: &mut u64, depth: u32) -> Value {
        match mix(seed) % if depth == 0 { 3 } else { 6 } {
            0 => Value::Null,
            1 => (mix(seed) % 5).into(),
            2 => format!("s{}", mix(seed) % 4).into(),
            3 => (0..mix(seed) % 5)
                .map(|_| random_tree(seed, depth - 1))
                .collect(),
            _ => Value::Object(
                (0..mix(seed) % 5)
                    .map(|_| (format!("k{}", mix(seed) % 6), random_tree(seed, depth - 1)))
                    .collect(),
            ),
        }
    }

    /// `tree` with a few random changes, some of them shifts of its lists.
    fn mutate(seed: &mut u64, tree: &Value) -> Value {
        match tree {
            Value::Object(map) => {
                let mut kept = Map::new();
                for (key, value) in map {
                    if !mix(seed).is_multiple_of(8) {
                        kept.insert(key.clone(), mutate(seed, value));
                    }
                }
                if mix(seed).is_multiple_of(4) {
                    kept.insert(format!("k{}", mix(seed) % 6), random_tree(seed, 1));
                }
                Value::Object(kept)
            }
            Value::Array(list) if mix(seed).is_multiple_of(3) && !list.is_empty() => {
                let mut moved: Vec<Value> = list[1..].to_vec();
                moved.push(random_tree(seed, 1));
                Value::Array(moved)
            }
            Value::Array(list) => list.iter().map(|v| mutate(seed, v)).collect(),
            _ if mix(seed).is_multiple_of(4) => random_tree(seed, 2),
            other => other.clone(),
        }
    }

    #[test]
    fn any_change_to_any_tree_round_trips() {
        let mut seed = 33;
        for _ in 0..5_000 {
            let old = random_tree(&mut seed, 4);
            let new = mutate(&mut seed, &old);
            round_trip(old, new);
        }
    }

    #[test]
    fn the_chain_logs_edits_until_they_outgrow_the_head() {
        let mut chain = HeadChain::default();
        let mut head = json!({"seq": 0, "text": "x".repeat(400)});
        assert_eq!(chain.update_for(&head), HeadUpdate::Whole);
        chain.stored(head.clone(), 1, &HeadUpdate::Whole);
        let mut wholes = 0;
        for version in 2..60 {
            head["seq"] = version.into();
            let update = chain.update_for(&head);
            if let HeadUpdate::Edits { parent_version, .. } = &update {
                assert_eq!(*parent_version, version - 1);
            } else {
                wholes += 1;
            }
            chain.stored(head.clone(), version, &update);
        }
        assert!((1..=2).contains(&wholes), "{wholes} whole writes in 58");
        chain.forget();
        assert_eq!(chain.update_for(&head), HeadUpdate::Whole);
    }

    #[test]
    fn the_chain_writes_the_whole_head_after_its_most_edit_writes() {
        let mut chain = HeadChain::default();
        let mut head = json!({"seq": 0, "text": "x".repeat(100_000)});
        chain.stored(head.clone(), 1, &HeadUpdate::Whole);
        for version in 2..=u64::from(MAX_EDIT_WRITES) + 1 {
            head["seq"] = version.into();
            let update = chain.update_for(&head);
            assert!(matches!(update, HeadUpdate::Edits { .. }));
            chain.stored(head.clone(), version, &update);
        }
        assert_eq!(chain.update_for(&head), HeadUpdate::Whole);
    }
}
