//! `viva bench examiner`: how far the examiner's judgement agrees with a labelled answer
//! set (`bench/examiner/answers/`): agreement, Cohen's kappa, the confusion matrix and the
//! false-pass rate, overall and by kind of answer, for the embedded examiner and, given
//! `--llm-url`, for a model-backed one on the same answers.

mod agreement;
mod report;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use viva_blueprint::answer_set::{LabelledAnswer, load_answers};
use viva_blueprint::library::Source;
use viva_core::exam::acs::{AcsLibrary, Rating};
use viva_core::examiner::{AssessRequest, EmbeddedExaminer, Examiner};

use crate::llm_config::{LlmFlags, LlmSection, resolve};
pub use report::Judged;

/// `viva bench examiner`.
#[derive(Debug, clap::Args)]
pub struct ExaminerBenchArgs {
    /// The labelled answers (every `*.yaml` in the folder).
    #[arg(long, default_value = "bench/examiner/answers")]
    answers: PathBuf,
    /// Folder with `acs/` and `rubrics/` (default: `./blueprints`, else the release's).
    #[arg(long)]
    blueprints: Option<PathBuf>,
    /// Also judge with a model at this OpenAI-compatible endpoint.
    #[arg(long)]
    llm_url: Option<String>,
    /// The model's name.
    #[arg(long, default_value = "default")]
    llm_model: String,
    /// The endpoint's API key.
    #[arg(long, env = "VIVA_LLM_API_KEY", hide_env_values = true)]
    llm_api_key: Option<String>,
    /// The most one model call may take, such as `60s`.
    #[arg(long, default_value = "60s", value_parser = humantime::parse_duration)]
    llm_timeout: Duration,
    /// List every answer whose score differs from its label.
    #[arg(long)]
    show_disagreements: bool,
    /// Judge only answers to elements that have a rubric.
    #[arg(long)]
    with_rubrics_only: bool,
    /// Judge only every Nth answer (a model on a CPU takes seconds per answer); the
    /// embedded examiner is judged on the same answers.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    every: u32,
}

/// Runs the benchmark and prints its report.
pub fn examiner(args: ExaminerBenchArgs) -> anyhow::Result<()> {
    let blueprints = crate::blueprints_dir::locate(args.blueprints.as_deref())?;
    let library = Arc::new(crate::blueprints::load_library(&blueprints)?);
    let mut answers = read_answers(&args.answers)?;
    check_elements(&library, &answers)?;
    if args.with_rubrics_only {
        answers.retain(|answer| library.rubric(&answer.element).is_some());
    }
    let every = args.every as usize;
    let answers: Vec<LabelledAnswer> = answers.into_iter().step_by(every).collect();
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let embedded = EmbeddedExaminer::new(library.clone());
    let judged = runtime.block_on(judge_all(&embedded, &library, &answers));
    report::print("embedded", &answers, &judged, args.show_disagreements);
    if let Some(url) = &args.llm_url {
        let examiner = llm_examiner(&args, url, &library)?;
        let judged = runtime.block_on(judge_all(examiner.as_ref(), &library, &answers));
        report::print(
            &format!("LLM {url}"),
            &answers,
            &judged,
            args.show_disagreements,
        );
    }
    Ok(())
}

fn read_answers(dir: &Path) -> anyhow::Result<Vec<LabelledAnswer>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
        .collect();
    paths.sort();
    let sources = paths
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            Ok(Source {
                path: path.display().to_string(),
                text,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    load_answers(&sources).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        anyhow::anyhow!("answer set errors:\n  {}", lines.join("\n  "))
    })
}

fn check_elements(library: &AcsLibrary, answers: &[LabelledAnswer]) -> anyhow::Result<()> {
    let unknown: Vec<&str> = answers
        .iter()
        .map(|a| a.element.as_str())
        .filter(|code| library.catalog(rating_of(code)).element(code).is_none())
        .collect();
    if !unknown.is_empty() {
        bail!("answers name elements not in the Private or Commercial ACS: {unknown:?}");
    }
    Ok(())
}

/// The rating an element code belongs to: `CA.` is Commercial, anything else Private.
fn rating_of(code: &str) -> Rating {
    if code.starts_with("CA.") {
        Rating::Commercial
    } else {
        Rating::Private
    }
}

fn llm_examiner(
    args: &ExaminerBenchArgs,
    url: &str,
    library: &Arc<AcsLibrary>,
) -> anyhow::Result<Arc<dyn Examiner>> {
    let section = LlmSection {
        timeout: Some(humantime::format_duration(args.llm_timeout).to_string()),
        max_tokens: Some(768),
        ..LlmSection::default()
    };
    let flags = LlmFlags {
        url: Some(url.to_owned()),
        model: Some(args.llm_model.clone()),
        api_key: args.llm_api_key.clone(),
        prompts: None,
    };
    let (settings, prompts) = resolve(&section, flags)?;
    let settings = settings.context("an LLM URL gives LLM settings")?;
    let prompts = viva_llm::prompts::Prompts::load(prompts.as_deref())?;
    let provider = viva_llm::provider::Provider::new(settings);
    Ok(Arc::new(viva_llm::examiner::LlmExaminer::new(
        provider,
        prompts,
        library.clone(),
    )))
}

/// Every answer judged, in order, as an examiner would after asking about its element.
async fn judge_all(
    examiner: &dyn Examiner,
    library: &AcsLibrary,
    answers: &[LabelledAnswer],
) -> Vec<Judged> {
    let mut judged = Vec::with_capacity(answers.len());
    for answer in answers {
        let rating = rating_of(&answer.element);
        let topic = (library.catalog(rating))
            .element(&answer.element)
            .map_or(answer.element.clone(), |e| {
                e.text.trim_end_matches('.').to_owned()
            });
        let request = AssessRequest {
            rating,
            element_code: answer.element.clone(),
            question: format!("Tell me about {topic}."),
            answer: answer.answer.clone(),
            other_pending: Vec::new(),
            follow_ups_left: 0,
            missing_terms: Vec::new(),
        };
        let started = Instant::now();
        let examined = examiner.assess(&request).await;
        judged.push(Judged {
            score: examined.value.score,
            feedback: examined.value.feedback,
            elapsed: started.elapsed(),
            fell_back: examined
                .call
                .as_ref()
                .is_some_and(|c| c.fallback_reason.is_some()),
        });
    }
    judged
}
