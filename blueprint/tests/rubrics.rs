//! The shipped rubrics (`blueprints/rubrics/`) load and pass every check.

use std::path::Path;

use viva_blueprint::rubric::RubricSet;

use crate::properties::sources;

#[test]
fn the_shipped_rubrics_load_and_pass_every_check() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../blueprints/rubrics");
    let found = sources(&dir);
    match RubricSet::load(&found) {
        Ok(set) => assert_eq!(
            set.len(),
            found
                .iter()
                .map(|s| s.text.matches("- element:").count())
                .sum::<usize>()
        ),
        Err(errors) => {
            let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
            panic!("{} rubric error(s):\n{}", errors.len(), lines.join("\n"));
        }
    }
}
