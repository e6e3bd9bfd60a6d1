//! `GET /metrics`: the server's own series (`ServerMetrics`: connections, supervisors,
//! events in and out, errors, resumes, full mailboxes) and every edge's, rendered one after
//! another (`AllMetrics`), after `viva_build_info` (version, commit, compiler).

use std::sync::Arc;

use viva_actors::metrics::SessionMetrics;
use viva_core::metrics::{
    Counter, Gauge, Histogram, LabeledCounter, Series, counter, gauge, header, histogram, labeled,
    render_all,
};
use viva_llm::metrics::LlmMetrics;
use viva_protocol::client::ClientEvent;
use viva_protocol::server::ServerEvent;
use viva_speech::metrics::SpeechMetrics;

/// What the WebSocket front counts.
#[derive(Debug)]
pub struct ServerMetrics {
    /// Open WebSocket connections (read off the connection limits at each scrape).
    pub connections: Gauge,
    /// Live user supervisors (read off the directory at each scrape).
    pub supervisors: Gauge,
    /// Sessions hibernated on this node (read off the directory at each scrape).
    pub hibernated: Gauge,
    /// Client events decoded, by type (frames that do not decode count only as errors).
    pub events_in: LabeledCounter,
    /// Server events sent, by type.
    pub events_out: LabeledCounter,
    /// `error` events sent, by code.
    pub errors: LabeledCounter,
    /// `session.resume` → `session.resumed`, by latency.
    pub resume_seconds: Histogram,
    /// Messages refused because an actor's mailbox was full.
    pub mailbox_full: Counter,
    /// Client events refused because the client had not read what it was sent.
    pub unread_refusals: Counter,
    /// HTTP requests refused at the edge (403), by reason: `origin`, `host`.
    pub refused: LabeledCounter,
}

impl Default for ServerMetrics {
    /// Every series at zero, labelled with the protocol's event types and error codes.
    fn default() -> ServerMetrics {
        ServerMetrics {
            connections: Gauge::default(),
            supervisors: Gauge::default(),
            hibernated: Gauge::default(),
            events_in: LabeledCounter::new(ClientEvent::TYPES),
            events_out: LabeledCounter::new(ServerEvent::TYPES),
            errors: LabeledCounter::new(viva_protocol::ErrorCode::NAMES),
            resume_seconds: Histogram::default(),
            mailbox_full: Counter::default(),
            unread_refusals: Counter::default(),
            refused: LabeledCounter::new(crate::edge::Refusal::REASONS),
        }
    }
}

impl Series for ServerMetrics {
    fn render(&self, out: &mut String) {
        gauge(
            out,
            "viva_connections",
            "Open WebSocket connections.",
            &self.connections,
        );
        gauge(
            out,
            "viva_supervisors",
            "Live user supervisors.",
            &self.supervisors,
        );
        gauge(
            out,
            "viva_sessions_hibernated",
            "Sessions whose actor stopped while their device was idle; the next event wakes them.",
            &self.hibernated,
        );
        let (events_in, events_out) = (&self.events_in, &self.events_out);
        labeled(
            out,
            "viva_events_in_total",
            "Client events by type.",
            "type",
            events_in,
        );
        labeled(
            out,
            "viva_events_out_total",
            "Server events by type.",
            "type",
            events_out,
        );
        let errors = &self.errors;
        labeled(
            out,
            "viva_errors_total",
            "Error events sent, by code.",
            "code",
            errors,
        );
        let help = "session.resume to session.resumed.";
        histogram(out, "viva_resume_seconds", help, "", &self.resume_seconds);
        let help = "Messages refused by a full actor mailbox.";
        counter(out, "viva_mailbox_full_total", help, &self.mailbox_full);
        let help = "Client events refused (rate_limited) while the client left too much unread.";
        counter(
            out,
            "viva_unread_refusals_total",
            help,
            &self.unread_refusals,
        );
        let help = "HTTP requests refused with 403 before any route: a foreign Origin, or in \
                    development mode a Host that is not loopback.";
        let refused = &self.refused;
        labeled(out, "viva_http_refused_total", help, "reason", refused);
    }
}

/// `viva_build_info{version, commit, rustc} 1`: what is running, for dashboards and alerts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildInfo {
    /// The package version.
    pub version: &'static str,
    /// `git rev-parse --short HEAD` at build time, or "unknown" (build.rs).
    pub commit: &'static str,
    /// `rustc --version` at build time (build.rs).
    pub rustc: &'static str,
}

/// This binary's.
pub const BUILD: BuildInfo = BuildInfo {
    version: env!("CARGO_PKG_VERSION"),
    commit: env!("VIVA_COMMIT"),
    rustc: env!("VIVA_RUSTC"),
};

impl Series for BuildInfo {
    fn render(&self, out: &mut String) {
        let help = "The running build: its version, git commit and compiler; always 1.";
        header(out, "viva_build_info", help, "gauge");
        out.push_str(&format!(
            "viva_build_info{{version=\"{}\",commit=\"{}\",rustc=\"{}\"}} 1\n",
            label_value(self.version),
            label_value(self.commit),
            label_value(self.rustc)
        ));
    }
}

/// A Prometheus label value: backslash, double quote and newline escaped.
fn label_value(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// Every edge's series; each edge holds its own `Arc` and counts into it.
#[derive(Debug, Default)]
pub struct AllMetrics {
    /// The WebSocket front's.
    pub server: Arc<ServerMetrics>,
    /// The session actors'.
    pub sessions: Arc<SessionMetrics>,
    /// The speech pool's (zero on a text-only server).
    pub speech: Arc<SpeechMetrics>,
    /// The LLM examiner's (zero without a model).
    pub llm: Arc<LlmMetrics>,
}

impl AllMetrics {
    /// The `GET /metrics` text.
    pub fn render(&self) -> String {
        let (server, sessions) = (&*self.server, &*self.sessions);
        render_all(&[&BUILD, server, sessions, &*self.speech, &*self.llm])
    }
}

#[cfg(test)]
mod tests {
    use viva_core::metrics::untyped_families;

    use super::*;

    #[test]
    fn every_edge_is_rendered_once_and_every_series_is_typed() {
        let metrics = AllMetrics::default();
        metrics.server.events_in.inc("ping");
        metrics.server.events_in.inc("no.such.type");
        let text = metrics.render();
        for family in [
            "viva_connections",
            "viva_events_in_total",
            "viva_sessions",
            "viva_stt_decode_seconds",
            "viva_llm_calls_total",
        ] {
            let typed = format!("# TYPE {family} ");
            assert_eq!(text.matches(&typed).count(), 1, "{family} in\n{text}");
        }
        assert!(text.contains("viva_events_in_total{type=\"ping\"} 1\n"));
        assert!(text.contains("viva_events_in_total{type=\"other\"} 1\n"));
        assert_eq!(untyped_families(&text), Vec::<String>::new());
        assert!(text.starts_with("# HELP viva_build_info "), "{text}");
    }

    #[test]
    fn build_info_escapes_its_label_values() {
        let check = |commit: &'static str, expected: &str| {
            let info = BuildInfo {
                version: "1.2.3",
                commit,
                rustc: "rustc 1.91.0 (f8297e351 2025-10-28)",
            };
            let mut out = String::new();
            info.render(&mut out);
            let line = out.lines().next_back().unwrap_or_default();
            let expected = format!(
                "viva_build_info{{version=\"1.2.3\",commit=\"{expected}\",\
                 rustc=\"rustc 1.91.0 (f8297e351 2025-10-28)\"}} 1"
            );
            assert_eq!(line, expected);
        };
        check("abc1234", "abc1234");
        check("unknown", "unknown");
        check("a\"b\\c\nd", "a\\\"b\\\\c\\nd");
    }
}
