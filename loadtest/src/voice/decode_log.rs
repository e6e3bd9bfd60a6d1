//! The server's JSON log, summed up: its speech pool logs one `decoded` line per decode (kind,
//! audio and decode milliseconds, queue depth, failure), a line when a final preempts a
//! running partial, and a warning when a turn is refused for overload.

use serde_json::{Value, json};

/// Decodes of one kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KindStats {
    /// Decodes run (aborted ones included).
    pub decodes: usize,
    /// Of which aborted (a partial preempted, or its turn over).
    pub aborted: usize,
    /// Of which failed.
    pub failed: usize,
    /// Wall time spent decoding, in ms.
    pub decode_ms: u64,
    /// Audio decoded, in ms.
    pub audio_ms: u64,
    /// The slowest decode, in ms.
    pub max_ms: u64,
}

impl KindStats {
    fn add(&mut self, fields: &Value) {
        let ms = fields["decode_ms"].as_u64().unwrap_or_default();
        self.decodes += 1;
        self.decode_ms += ms;
        self.max_ms = self.max_ms.max(ms);
        self.audio_ms += fields["audio_ms"].as_u64().unwrap_or_default();
        match fields["failed"].as_str().unwrap_or("None") {
            "None" => {}
            "Some(Aborted)" => self.aborted += 1,
            _ => self.failed += 1,
        }
    }

    /// As JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "decodes": self.decodes, "aborted": self.aborted, "failed": self.failed,
            "decode_ms": self.decode_ms, "audio_ms": self.audio_ms, "max_ms": self.max_ms,
        })
    }
}

/// What one server's log says about its decodes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DecodeLog {
    /// Final transcripts.
    pub finals: KindStats,
    /// Partial previews.
    pub partials: KindStats,
    /// Finals that stopped a running partial to get a thread.
    pub preemptions: usize,
    /// Turns refused because too many finals were waiting.
    pub refused: usize,
    /// The most finals seen waiting behind a decode.
    pub max_finals_waiting: u64,
    /// Warnings and errors of any kind.
    pub warnings: usize,
}

impl DecodeLog {
    /// Sums up a JSON log (one object per line; other lines are skipped).
    pub fn parse(text: &str) -> DecodeLog {
        let mut log = DecodeLog::default();
        for line in text.lines() {
            if let Ok(entry) = serde_json::from_str::<Value>(line) {
                log.add(&entry);
            }
        }
        log
    }

    fn add(&mut self, entry: &Value) {
        let fields = &entry["fields"];
        let message = fields["message"].as_str().unwrap_or_default();
        if matches!(entry["level"].as_str(), Some("WARN" | "ERROR")) {
            self.warnings += 1;
        }
        if message.starts_with("decoded") {
            let waiting = fields["finals_waiting"].as_u64().unwrap_or_default();
            self.max_finals_waiting = self.max_finals_waiting.max(waiting);
            match fields["kind"].as_str() {
                Some("Final") => self.finals.add(fields),
                _ => self.partials.add(fields),
            }
        } else if message.starts_with("a final preempted") {
            self.preemptions += 1;
        } else if message.starts_with("speech pool overloaded") {
            self.refused += 1;
        }
    }

    /// As JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "finals": self.finals.to_json(), "partials": self.partials.to_json(),
            "preemptions": self.preemptions, "refused_turns": self.refused,
            "max_finals_waiting": self.max_finals_waiting, "warnings": self.warnings,
        })
    }

    /// One line for the summary.
    pub fn line(&self) -> String {
        format!(
            "server decodes: {} finals ({} ms), {} partials ({} aborted, {} ms), \
             {} preemptions, {} refused turns, max {} finals waiting",
            self.finals.decodes,
            self.finals.decode_ms,
            self.partials.decodes,
            self.partials.aborted,
            self.partials.decode_ms,
            self.preemptions,
            self.refused,
            self.max_finals_waiting
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = r#"{"timestamp":"t","level":"INFO","fields":{"message":"voice on"},"target":"viva"}
{"level":"DEBUG","fields":{"message":"decoded","kind":"Partial","audio_ms":1000,"decode_ms":700,"finals_waiting":0,"partials_waiting":0,"failed":"None"}}
{"level":"DEBUG","fields":{"message":"a final preempted a running partial"}}
{"level":"DEBUG","fields":{"message":"decoded","kind":"Partial","audio_ms":2000,"decode_ms":90,"finals_waiting":0,"partials_waiting":0,"failed":"Some(Aborted)"}}
{"level":"INFO","fields":{"message":"decoded; finals are waiting","kind":"Final","audio_ms":2500,"decode_ms":800,"finals_waiting":2,"partials_waiting":1,"failed":"None"}}
{"level":"WARN","fields":{"message":"speech pool overloaded; a turn was refused","err":"x"}}
not json
"#;

    #[test]
    fn decodes_are_summed_by_kind() {
        let log = DecodeLog::parse(LOG);
        assert_eq!(log.partials.decodes, 2);
        assert_eq!(log.partials.aborted, 1);
        assert_eq!(log.partials.decode_ms, 790);
        assert_eq!(log.partials.max_ms, 700);
        assert_eq!(log.finals.decodes, 1);
        assert_eq!(log.finals.audio_ms, 2500);
        assert_eq!(log.preemptions, 1);
        assert_eq!(log.refused, 1);
        assert_eq!(log.max_finals_waiting, 2);
        assert_eq!(log.warnings, 1);
    }
}
