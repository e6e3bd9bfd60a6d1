//! The benchmark's spoken answers: exam-like English sentences of one to five seconds, said
//! by festival's `cmu_us_slt_arctic_hts` voice ([`voices`]), resampled by sox to 16 kHz mono
//! PCM16 and cached as WAV files named after their text, so a changed sentence is
//! synthesised afresh.

use std::path::Path;

use super::BenchError;
use super::voices::{self, Voice, text_hash};
use super::wav::{RATE, read_wav};

/// The answers, numbers said in words so the reference is unambiguous.
pub const ANSWERS: &[&str] = &[
    "Carburetor ice.",
    "Check the weather.",
    "Runway two seven.",
    "Pitot static system.",
    "Aviate, navigate, communicate.",
    "Oil pressure is in the green.",
    "Class B airspace requires a clearance.",
    "The stall speed is forty eight knots.",
    "Best glide speed is sixty eight knots.",
    "Climb to three thousand five hundred feet.",
    "Density altitude increases with temperature.",
    "Wind two seven zero at fifteen knots.",
    "Eight hours from bottle to throttle.",
    "Thirty minutes of fuel reserve during the day.",
    "At night the reserve is forty five minutes.",
    "An annual inspection every twelve calendar months.",
    "A flight review every twenty four calendar months.",
    "Squawk seven thousand seven hundred in an emergency.",
    "Visibility three statute miles, clear of clouds.",
    "Hypoxia, hyperventilation and spatial disorientation.",
    "The magnetic compass lags in turns to the north.",
    "A transponder is required above ten thousand feet.",
    "Three takeoffs and landings within the preceding ninety days.",
    "The maximum gross weight is two thousand four hundred fifty pounds.",
    "Private pilots may not fly for compensation or hire.",
    "A pilot certificate, a medical, and photo identification.",
    "The stall warning sounds five to ten knots above the stall.",
    "Lower the nose, level the wings, and add full power.",
    "The airspeed indicator and altimeter use the pitot static system.",
    "Cruise at six thousand five hundred feet, heading one eight zero.",
];

/// One answer: its text and its audio.
#[derive(Debug, Clone)]
pub struct Clip {
    /// Position in [`ANSWERS`].
    pub index: usize,
    /// What is said.
    pub text: &'static str,
    /// 16 kHz mono PCM16.
    pub samples: Vec<i16>,
}

impl Clip {
    /// Length in seconds.
    pub fn seconds(&self) -> f64 {
        self.samples.len() as f64 / RATE as f64
    }
}

/// The first `count` answers (all when `None`), synthesised into `dir` where not cached.
pub fn load(dir: &Path, count: Option<usize>) -> Result<Vec<Clip>, BenchError> {
    std::fs::create_dir_all(dir).map_err(BenchError::io(format!("creating {}", dir.display())))?;
    let count = count.unwrap_or(ANSWERS.len()).min(ANSWERS.len());
    let mut clips = Vec::with_capacity(count);
    for (index, &text) in ANSWERS.iter().enumerate().take(count) {
        let path = dir.join(file_name(index, text));
        if !path.is_file() {
            voices::synthesise(Voice::Festival, text, &path)?;
        }
        let samples = read_wav(&path)?;
        clips.push(Clip {
            index,
            text,
            samples,
        });
    }
    Ok(clips)
}

/// `NN-HASH.wav`: the position, and a hash of the text (FNV-1a, 64 bits).
pub fn file_name(index: usize, text: &str) -> String {
    format!("{index:02}-{:016x}.wav", text_hash(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_follow_the_text() {
        let name = file_name(3, "Runway two seven.");
        assert!(name.starts_with("03-") && name.ends_with(".wav"), "{name}");
        assert_eq!(name, file_name(3, "Runway two seven."));
        assert_ne!(name, file_name(3, "Runway two eight."));
    }

    #[test]
    fn the_answers_are_distinct_and_short() {
        let mut names: Vec<String> = ANSWERS
            .iter()
            .enumerate()
            .map(|(i, text)| file_name(i, text))
            .collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), ANSWERS.len());
        assert!(
            ANSWERS
                .iter()
                .all(|text| text.split_whitespace().count() <= 16)
        );
    }
}
