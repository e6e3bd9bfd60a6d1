//! The HTML report: one self-contained page (inline SVG charts drawn with `plotters`, no
//! scripts, no external resources) with the run's summary, percentiles per step, the audit,
//! errors, cluster events, and charts of latency, throughput, open exams, and server RSS and
//! CPU over time. Text in the charts is SVG `<text>`, drawn by the browser's own fonts.

use std::fmt::Write as _;

use plotters::prelude::*;
use serde_json::Value;

use super::RunResult;
use super::recorder::Step;
use super::timeline::{Event, Sample};

const WIDTH: u32 = 900;
const HEIGHT: u32 = 320;
const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// One line of a chart: a name and its points (a NaN y leaves a gap).
pub struct Series {
    /// The legend.
    pub name: String,
    /// (x, y) points, in order of x.
    pub points: Vec<(f64, f64)>,
}

/// The whole page for `result`, whose JSON report is `report`.
pub fn page(result: &RunResult, report: &Value) -> String {
    let mut html = String::with_capacity(64 * 1024);
    html.push_str(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>viva-loadtest</title>",
    );
    html.push_str("<style>body{font-family:sans-serif;max-width:960px;margin:2em auto;color:#222}");
    html.push_str("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;");
    html.push_str("text-align:right}th{background:#f3f3f3}pre{background:#f7f7f7;padding:8px;");
    html.push_str("overflow:auto}.bad{color:#b00;font-weight:bold}</style></head><body>");
    let scenario = report["scenario"].as_str().unwrap_or("run");
    let _ = write!(html, "<h1>viva-loadtest: {}</h1>", escape(scenario));
    summary(&mut html, result, report);
    percentiles(&mut html, result);
    events(&mut html, &result.events);
    charts(&mut html, &result.samples, &result.events, result);
    let options = serde_json::to_string_pretty(&report["options"]).unwrap_or_default();
    let _ = write!(
        html,
        "<h2>Options</h2><pre>{}</pre></body></html>",
        escape(&options)
    );
    html
}

fn summary(html: &mut String, result: &RunResult, report: &Value) {
    let throughput = &report["throughput"];
    let audit = &result.audit;
    let clean = if audit.is_clean() {
        ""
    } else {
        " class=\"bad\""
    };
    let errors: u64 = result.recorder.errors().values().sum();
    let _ = write!(
        html,
        "<h2>Summary</h2><table><tr><th>answers</th><th>exams</th><th>wall (s)</th>\
         <th>answers/s</th><th>failovers</th><th>errors</th><th>acked audited</th>\
         <th>lost</th><th>duplicated</th></tr><tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
         <td>{}</td><td>{}</td><td>{}</td><td{clean}>{}</td><td{clean}>{}</td></tr></table>",
        result.answers,
        result.exams,
        throughput["wall_s"],
        throughput["answers_per_s"],
        result.failovers,
        errors,
        audit.acked,
        audit.lost,
        audit.duplicated
    );
    if let Some(violations) = report["violations"].as_array().filter(|v| !v.is_empty()) {
        html.push_str("<p class=\"bad\">Thresholds broken:</p><ul>");
        for violation in violations {
            let _ = write!(
                html,
                "<li>{}</li>",
                escape(violation.as_str().unwrap_or(""))
            );
        }
        html.push_str("</ul>");
    }
    if !result.recorder.errors().is_empty() {
        html.push_str("<h3>Errors by code</h3><table><tr><th>code</th><th>count</th></tr>");
        for (code, count) in result.recorder.errors() {
            let _ = write!(html, "<tr><td>{}</td><td>{count}</td></tr>", escape(code));
        }
        html.push_str("</table>");
    }
}

const QUANTILES: [(f64, &str); 5] = [
    (0.5, "p50"),
    (0.9, "p90"),
    (0.99, "p99"),
    (0.999, "p99.9"),
    (1.0, "max"),
];

fn percentiles(html: &mut String, result: &RunResult) {
    html.push_str("<h2>Latency (ms)</h2><table><tr><th>step</th><th>n</th>");
    for (_, label) in QUANTILES {
        let _ = write!(html, "<th>{label}</th>");
    }
    html.push_str("</tr>");
    let recorder = &result.recorder;
    for step in Step::ALL.iter().filter(|step| recorder.count(**step) > 0) {
        let _ = write!(
            html,
            "<tr><td>{}</td><td>{}</td>",
            step.name(),
            recorder.count(*step)
        );
        for (quantile, _) in QUANTILES {
            let _ = write!(
                html,
                "<td>{:.2}</td>",
                recorder.quantile_ms(*step, quantile)
            );
        }
        html.push_str("</tr>");
    }
    html.push_str("</table>");
}

fn events(html: &mut String, events: &[Event]) {
    if events.is_empty() {
        return;
    }
    html.push_str("<h2>Cluster events</h2><table><tr><th>t (s)</th><th>what</th></tr>");
    for event in events {
        let _ = write!(
            html,
            "<tr><td>{:.1}</td><td>{}</td></tr>",
            event.t_s,
            escape(&event.what)
        );
    }
    html.push_str("</table>");
}

fn charts(html: &mut String, samples: &[Sample], events: &[Event], result: &RunResult) {
    html.push_str("<h2>Over time</h2>");
    let markers: Vec<(f64, String)> = events.iter().map(|e| (e.t_s, e.what.clone())).collect();
    let over_time = |pick: &dyn Fn(&Sample) -> f64, name: &str| Series {
        name: name.to_owned(),
        points: samples.iter().map(|s| (s.t_s, pick(s))).collect(),
    };
    let latency = [
        over_time(&|s| s.p50_ms, "p50"),
        over_time(&|s| s.p99_ms, "p99"),
    ];
    push_chart(
        html,
        "Answer → next question (ms), per sample",
        "ms",
        &latency,
        &markers,
    );
    let rate = [over_time(&|s| s.answers_per_s, "answers/s")];
    push_chart(html, "Throughput (answers/s)", "answers/s", &rate, &markers);
    let open = [over_time(&|s| s.open_exams as f64, "open exams")];
    push_chart(html, "Exams open", "exams", &open, &markers);
    let rss = per_server(samples, |p| p.rss_mib);
    if !rss.is_empty() {
        push_chart(html, "Server RSS (MiB)", "MiB", &rss, &markers);
    }
    let mut cpu = per_server(samples, |p| p.cpu_cores);
    cpu.push(over_time(&|s| s.loadtest_cpu_cores, "load tester"));
    push_chart(html, "CPU (cores)", "cores", &cpu, &markers);
    let steps: Vec<Series> = Step::ALL
        .iter()
        .filter(|step| result.recorder.count(**step) > 0)
        .map(|step| Series {
            name: step.name().to_owned(),
            points: QUANTILES
                .iter()
                .enumerate()
                .map(|(i, (q, _))| (i as f64, result.recorder.quantile_ms(*step, *q).max(0.001)))
                .collect(),
        })
        .collect();
    html.push_str(&percentile_chart(&steps));
}

/// One series per watched server, of the values `pick` reads (NaN, a gap, while it was
/// down).
fn per_server(
    samples: &[Sample],
    pick: impl Fn(&super::timeline::ProcessSample) -> Option<f64>,
) -> Vec<Series> {
    super::timeline::server_names(samples)
        .into_iter()
        .map(|name| Series {
            points: samples
                .iter()
                .map(|s| {
                    let process = s.servers.iter().find(|p| p.name == name);
                    (s.t_s, process.and_then(&pick).unwrap_or(f64::NAN))
                })
                .collect(),
            name,
        })
        .collect()
}

fn push_chart(
    html: &mut String,
    title: &str,
    unit: &str,
    series: &[Series],
    markers: &[(f64, String)],
) {
    let _ = write!(html, "<h3>{}</h3>", escape(title));
    match line_chart(unit, series, markers) {
        Ok(svg) => html.push_str(&svg),
        Err(err) => {
            let _ = write!(html, "<p>(chart not drawn: {})</p>", escape(&err));
        }
    }
}

/// The plotting area every chart shares: margins and room for the axis labels.
fn chart_area<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut builder = ChartBuilder::on(root);
    builder
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(60);
    builder
}

/// An SVG line chart of `series` against seconds, with a dashed vertical line per marker.
pub fn line_chart(
    unit: &str,
    series: &[Series],
    markers: &[(f64, String)],
) -> Result<String, String> {
    let points = series.iter().flat_map(|s| s.points.iter());
    let (x_max, y_max) = points
        .filter(|(_, y)| y.is_finite())
        .fold((1.0_f64, 0.0_f64), |(x, y), (px, py)| {
            (x.max(*px), y.max(*py))
        });
    let y_max = if y_max > 0.0 { y_max * 1.1 } else { 1.0 };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = chart_area(&root)
            .build_cartesian_2d(0.0..x_max, 0.0..y_max)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("seconds from start")
            .y_desc(unit)
            .draw()
            .map_err(|e| e.to_string())?;
        for (t, _) in markers {
            let dashed = [(*t, 0.0), (*t, y_max)];
            chart
                .draw_series(DashedLineSeries::new(dashed, 6, 4, BLACK.stroke_width(1)))
                .map_err(|e| e.to_string())?;
        }
        for (index, line) in series.iter().enumerate() {
            let color = PALETTE[index % PALETTE.len()];
            let mut segments = line.points.split(|(_, y)| !y.is_finite());
            let first = segments.find(|segment| !segment.is_empty());
            for segment in segments.filter(|segment| !segment.is_empty()) {
                let segment = LineSeries::new(segment.iter().copied(), color.stroke_width(2));
                chart.draw_series(segment).map_err(|e| e.to_string())?;
            }
            chart
                .draw_series(LineSeries::new(
                    first.unwrap_or_default().iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(|e| e.to_string())?
                .label(line.name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// Percentiles per step on a log scale: p50, p90, p99, p99.9 and max along the x axis.
fn percentile_chart(steps: &[Series]) -> String {
    let mut html = String::from("<h3>Percentiles by step (ms, log scale)</h3>");
    match draw_percentiles(steps) {
        Ok(svg) => html.push_str(&svg),
        Err(err) => {
            let _ = write!(html, "<p>(chart not drawn: {})</p>", escape(&err));
        }
    }
    html
}

fn draw_percentiles(steps: &[Series]) -> Result<String, String> {
    let values = steps.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (low, high) = values.fold((f64::MAX, 0.001_f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let low = if low == f64::MAX { 0.001 } else { low / 2.0 };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = chart_area(&root)
            .build_cartesian_2d(-0.2..4.2, (low..high * 2.0).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_labels(5)
            .x_label_formatter(&|x: &f64| {
                let index = x.round() as usize;
                QUANTILES
                    .get(index)
                    .map_or(String::new(), |(_, label)| (*label).to_owned())
            })
            .y_desc("ms")
            .draw()
            .map_err(|e| e.to_string())?;
        for (index, step) in steps.iter().enumerate() {
            let color = PALETTE[index % PALETTE.len()];
            let points = step.points.clone();
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(step.name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                });
            chart
                .draw_series(
                    points
                        .into_iter()
                        .map(|p| Circle::new(p, 3, color.filled())),
                )
                .map_err(|e| e.to_string())?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// Text made safe for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::run::timeline::ProcessSample;

    fn sample(t_s: f64, p99_ms: f64, rss: Option<f64>) -> Sample {
        Sample {
            t_s,
            answers_per_s: 10.0,
            p50_ms: p99_ms / 2.0,
            p99_ms,
            open_exams: 5,
            errors: 0,
            loadtest_cpu_cores: 0.5,
            servers: vec![ProcessSample {
                name: "node-0".into(),
                rss_mib: rss,
                cpu_cores: rss.map(|_| 0.7),
            }],
        }
    }

    #[test]
    fn a_line_chart_is_an_svg_with_its_legend() {
        let series = [Series {
            name: "p99 <fast>".into(),
            points: vec![(1.0, 3.0), (2.0, 5.0)],
        }];
        let svg = line_chart("ms", &series, &[(1.5, "SIGKILL node-0".into())]).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
        assert!(
            svg.contains("p99 &lt;fast&gt;"),
            "the legend is escaped text"
        );
        assert!(
            svg.contains("<polyline") || svg.contains("<path"),
            "a line is drawn"
        );
    }

    #[test]
    fn a_gap_splits_the_line_and_draws_no_nan() {
        let series = [Series {
            name: "node-0".into(),
            points: vec![
                (1.0, 3.0),
                (2.0, 4.0),
                (3.0, f64::NAN),
                (4.0, 5.0),
                (5.0, 6.0),
            ],
        }];
        let svg = line_chart("MiB", &series, &[]).unwrap();
        assert!(!svg.contains("NaN"), "{svg}");
        let joined = [Series {
            name: "node-0".into(),
            points: vec![(1.0, 3.0), (2.0, 4.0), (4.0, 5.0), (5.0, 6.0)],
        }];
        let whole = line_chart("MiB", &joined, &[]).unwrap();
        let lines = |svg: &str| svg.matches("<polyline").count();
        assert_eq!(
            lines(&svg),
            lines(&whole) + 1,
            "two segments instead of one"
        );
    }

    #[test]
    fn the_page_is_self_contained_and_shows_the_audit_events_and_charts() {
        let mut result = RunResult {
            answers: 3,
            ..RunResult::default()
        };
        result
            .recorder
            .record(Step::AnswerToNext, Duration::from_millis(4));
        result.recorder.error("session_moved");
        result.samples = vec![sample(1.0, 8.0, Some(100.0)), sample(2.0, 9.0, None)];
        result.events = vec![Event {
            t_s: 1.5,
            what: "SIGKILL node-0".into(),
        }];
        result.audit.lost = 1;
        let report = serde_json::json!({"scenario": "Chaos", "throughput": {"wall_s": 2.0,
            "answers_per_s": 1.5}, "violations": ["lost 1"], "options": {"sessions": 3}});
        let page = page(&result, &report);
        for expected in [
            "<h1>viva-loadtest: Chaos</h1>",
            "SIGKILL node-0",
            "session_moved",
            "class=\"bad\"",
            "Server RSS (MiB)",
            "answer_to_next_question",
        ] {
            assert!(page.contains(expected), "missing {expected}");
        }
        assert_eq!(page.matches("<svg").count(), 6, "six charts");
        assert!(
            !page.contains("src=") && !page.contains("<link"),
            "nothing is fetched"
        );
        assert!(!page.contains("<script"), "no scripts");
    }
}
