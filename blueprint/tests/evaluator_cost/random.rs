//! A million random programs from a seeded generator, each compiled and run within 10 ms.

use std::time::{Duration, Instant};

use viva_blueprint::expr::Env;
use viva_blueprint::rng::SeededRng;

use super::{Case, LIMIT, NAMES, Outcome, RETRIES, environment, run};

/// Random programs run.
const PROGRAMS: u64 = 1_000_000;

const LITERALS: &[&str] = &[
    "0",
    "1",
    "7",
    "-3",
    "255",
    "4096",
    "9223372036854775807",
    "10 ** 18",
    "0.5",
    "1e308",
    "5e-324",
    "-2.5",
    "float('nan')",
    "float('inf')",
    "''",
    "'a'",
    "'ab'",
    "'é€'",
    "'10.0.0.1'",
    "'12'",
    "'increment_octet_3'",
    "True",
    "False",
    "[]",
    "[1, 2, 3]",
    "['a', [1.5]]",
];
const COUNTS: &[&str] = &[
    "0",
    "1",
    "3",
    "-1",
    "1000",
    "1024",
    "4096",
    "4097",
    "10 ** 9",
    "9223372036854775807",
    "-9223372036854775807",
    "big",
    "n",
    "True",
];
const BINARY: &[&str] = &["+", "-", "*", "/", "//", "%", "**"];
const COMPARE: &[&str] = &["<", "<=", ">", ">=", "==", "!=", "in", "not in"];
const SPECS: &[&str] = &[
    "", ">10", ".2f", ".4096f", "4096", ",", "e", ".4000e", ".300%", "g", ".4096g", "08b", "#x",
    "^4096", "=+30", "_", ",.3f", "010,", "04096,", "s", ".5", "d", "f",
];
/// Whitelisted functions and their argument counts.
const FUNCTIONS: &[(&str, &[usize])] = &[
    ("abs", &[1]),
    ("min", &[1, 2, 3]),
    ("max", &[1, 2, 3]),
    ("round", &[1, 2]),
    ("int", &[1]),
    ("float", &[1]),
    ("str", &[1]),
    ("len", &[1]),
    ("sum", &[1]),
    ("sqrt", &[1]),
    ("floor", &[1]),
    ("ceil", &[1]),
    ("sin_deg", &[1]),
    ("cos_deg", &[1]),
    ("tan_deg", &[1]),
    ("asin_deg", &[1]),
    ("atan_deg", &[1]),
    ("cidr_to_mask", &[1]),
    ("mask_to_cidr", &[1]),
    ("compute_network_address", &[2, 5]),
    ("compute_broadcast_address", &[2, 5]),
    ("compute_first_host", &[2, 5]),
    ("compute_last_host", &[2, 5]),
    ("host_count", &[1]),
    ("network_with_error", &[2, 3]),
    ("ip_to_int", &[1]),
    ("int_to_ip", &[1]),
];

/// Writes random programs from a seed. Literals are single-quoted and f-strings
/// double-quoted, and an f-string holds no other, so every program is well formed.
struct Generator {
    rng: SeededRng,
    in_fstring: bool,
}

impl Generator {
    fn pick<'a>(&mut self, options: &[&'a str]) -> &'a str {
        options[self.rng.next_index(options.len())]
    }

    fn case(&mut self) -> Case {
        let depth = 1 + self.rng.next_index(4);
        if self.rng.next_index(8) == 0 {
            let (first, second) = (self.expr(depth), self.expr(depth));
            let spec = self.pick(SPECS);
            let source = format!("Q {{{first}}} and {{{second}:{spec}}}?");
            return Case {
                source,
                template: true,
            };
        }
        Case {
            source: self.expr(depth),
            template: false,
        }
    }

    fn expr(&mut self, depth: usize) -> String {
        if depth == 0 {
            return self.atom();
        }
        let d = depth - 1;
        match self.rng.next_index(13) {
            0 | 1 => self.atom(),
            2 => format!("({} {} {})", self.expr(d), self.pick(BINARY), self.expr(d)),
            3 => format!("({} * {})", self.expr(d), self.pick(COUNTS)),
            4 => format!("({} {} {})", self.expr(d), self.pick(COMPARE), self.expr(d)),
            5 => format!(
                "({} and {} or not {})",
                self.expr(d),
                self.expr(d),
                self.expr(d)
            ),
            6 => format!(
                "({} if {} else {})",
                self.expr(d),
                self.expr(d),
                self.expr(d)
            ),
            7 => format!("({})[{}]", self.expr(d), self.index()),
            8 | 9 => self.call(d),
            10 => self.list(d),
            11 if !self.in_fstring => self.fstring(d),
            _ => format!("-({})", self.expr(d)),
        }
    }

    fn fstring(&mut self, depth: usize) -> String {
        self.in_fstring = true;
        let field = self.expr(depth);
        self.in_fstring = false;
        format!("f\"<{{{field}:{}}}>\"", self.pick(SPECS))
    }

    fn atom(&mut self) -> String {
        if self.rng.next_index(2) == 0 {
            self.pick(NAMES).to_owned()
        } else {
            self.pick(LITERALS).to_owned()
        }
    }

    fn index(&mut self) -> String {
        self.pick(&["0", "-1", "5", "1023", "4095", "n", "True", "-4096"])
            .to_owned()
    }

    fn call(&mut self, depth: usize) -> String {
        let (name, counts) = FUNCTIONS[self.rng.next_index(FUNCTIONS.len())];
        let count = counts[self.rng.next_index(counts.len())];
        let args: Vec<String> = (0..count).map(|_| self.expr(depth)).collect();
        format!("{name}({})", args.join(", "))
    }

    fn list(&mut self, depth: usize) -> String {
        let len = self.rng.next_index(4);
        let items: Vec<String> = (0..len).map(|_| self.expr(depth)).collect();
        format!("[{}]", items.join(", "))
    }
}

/// The fastest of a few runs of `case`, for a program found over the limit. A run over a
/// second is not repeated: no busy machine explains that.
fn fastest(case: &Case, env: &Env, first: Duration) -> Duration {
    if first > LIMIT * 100 {
        return first;
    }
    (0..RETRIES)
        .map(|_| run(case, env).1)
        .min()
        .map_or(first, |best| best.min(first))
}

/// Programs kept as the slowest of a run, to be timed again at the end.
const SLOWEST_KEPT: usize = 16;

/// Counts and extremes of a batch of programs.
#[derive(Default)]
struct Tally {
    outcomes: [u64; 3],
    slowest: Vec<(Duration, Case)>,
    over_limit: Vec<(Duration, Case)>,
}

impl Tally {
    fn record(&mut self, case: &Case, env: &Env, outcome: Outcome, elapsed: Duration) {
        self.outcomes[outcome as usize] += 1;
        let elapsed = if elapsed > LIMIT {
            fastest(case, env, elapsed)
        } else {
            elapsed
        };
        let kept = self.slowest.len() == SLOWEST_KEPT;
        if !kept || self.slowest.last().is_some_and(|(time, _)| elapsed > *time) {
            let copy = Case {
                source: case.source.clone(),
                template: case.template,
            };
            self.slowest.push((elapsed, copy));
            self.keep_slowest();
        }
        if elapsed > LIMIT {
            let copy = Case {
                source: case.source.clone(),
                template: case.template,
            };
            self.over_limit.push((elapsed, copy));
        }
    }

    fn keep_slowest(&mut self) {
        self.slowest
            .sort_by_key(|(time, _)| std::cmp::Reverse(*time));
        self.slowest.truncate(SLOWEST_KEPT);
    }

    fn merge(mut self, other: Tally) -> Tally {
        for (mine, theirs) in self.outcomes.iter_mut().zip(other.outcomes) {
            *mine += theirs;
        }
        self.slowest.extend(other.slowest);
        self.keep_slowest();
        self.over_limit.extend(other.over_limit);
        self
    }

    /// The programs still over the limit when timed again once every shard has finished
    /// (fastest of a few runs each): a program caught over it while the machine was busy
    /// (the shards, other tests, a build) gets a second chance on a quieter machine.
    fn still_over_limit(&self) -> Vec<(Duration, String)> {
        let env = environment();
        self.over_limit
            .iter()
            .map(|(first, case)| (fastest(case, &env, *first), case.source.clone()))
            .filter(|(time, _)| *time > LIMIT)
            .collect()
    }

    /// The slowest program once the slowest single runs are timed again (fastest of a few
    /// runs each, as a program over the limit is): a single run may have been preempted.
    fn slowest_retimed(&self) -> (Duration, String) {
        let env = environment();
        let retimed = self.slowest.iter().map(|(first, case)| {
            let best = (0..RETRIES).map(|_| run(case, &env).1).min();
            (
                best.map_or(*first, |best| best.min(*first)),
                case.source.clone(),
            )
        });
        retimed.max_by_key(|(time, _)| *time).unwrap_or_default()
    }
}

/// Runs `count` programs from the generator seeded with `seed`.
fn run_shard(seed: u64, count: u64) -> Tally {
    let env = environment();
    let mut generator = Generator {
        rng: SeededRng::new(seed),
        in_fstring: false,
    };
    let mut tally = Tally::default();
    for _ in 0..count {
        let case = generator.case();
        let (outcome, elapsed) = run(&case, &env);
        tally.record(&case, &env, outcome, elapsed);
    }
    tally
}

#[test]
fn a_million_random_programs_each_run_within_10_ms() {
    let shards = std::thread::available_parallelism().map_or(1, |n| n.get().min(4)) as u64;
    let started = Instant::now();
    let tally = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..shards)
            .map(|shard| {
                let count = PROGRAMS / shards + u64::from(shard < PROGRAMS % shards);
                scope.spawn(move || run_shard(0x5EED_C057 + shard, count))
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().unwrap_or_else(|_| panic!("a shard panicked")))
            .fold(Tally::default(), Tally::merge)
    });
    let elapsed = started.elapsed().as_secs_f64();
    let [rejected, failed, evaluated] = tally.outcomes;
    let (slowest, source) = tally.slowest_retimed();
    println!(
        "{PROGRAMS} programs on {shards} thread(s) in {elapsed:.1} s: {evaluated} evaluated, \
         {failed} failed at run time, {rejected} rejected at compile time; slowest (fastest of \
         {RETRIES} runs) {slowest:?}: {source}"
    );
    assert_eq!(tally.outcomes.iter().sum::<u64>(), PROGRAMS);
    let over_limit = tally.still_over_limit();
    assert!(
        over_limit.is_empty(),
        "{} program(s) over {LIMIT:?}: {:#?}",
        over_limit.len(),
        &over_limit[..over_limit.len().min(10)]
    );
    assert!(
        rejected * 100 < PROGRAMS,
        "the generator should write valid programs: {rejected} rejected"
    );
    assert!(
        evaluated * 10 > PROGRAMS,
        "too few programs evaluate to a value: {evaluated}"
    );
}
