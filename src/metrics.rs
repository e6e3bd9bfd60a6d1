//! `GET /metrics`: the server's own series (`ServerMetrics`: connections, supervisors,
//! events in and out, errors, resumes, full mailboxes) and every edge's, rendered one after
//! another (`AllMetrics`).

use std::sync::Arc;

use viva_actors::metrics::SessionMetrics;
use viva_core::metrics::{
    Counter, Gauge, Histogram, LabeledCounter, Series, counter, gauge, histogram, labeled,
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
        render_all(&[&*self.server, &*self.sessions, &*self.speech, &*self.llm])
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
    }
}
